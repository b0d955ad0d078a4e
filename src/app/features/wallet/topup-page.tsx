import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as v from 'valibot';
import { showToast } from '../../components/toast';
import { fieldA11y, useSchemaForm } from '../../lib/form';
import { formatSgd } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { TOPUP_METHODS, type TopupRecord } from '../../../shared/schemas/wallet';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { refreshUserInfo } from '../../lib/user-info';
import { useOnline } from '../../lib/online';
import { requestTopup, useLimits, useTopups } from './api';
import { parseAmount } from './amount';
import { PaymentPanel } from './paynow-panel';
import { TopupList } from './records';
import { FreshAfterSuccess } from '../../components/forms/fresh-after-success';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { AmountInput, WalletPage } from './wallet-parts';

// /pages/profile/topup (route chosen in the pattern of the other profile screens): the top-up form (amount and
// method), then the payment step of that top-up (docs/product.md#top-ups: the server assigns the reference;
// PayNow shows the QR of exactly this top-up, a bank transfer the account details, both with copy buttons and
// a countdown to the expiry), and the user's top-up records (pending / credited / rejected) below. An
// operator import of the bank statement credits it; the step turns "credited" live.

const FORM = 'topup';

/** The form's amount: the typed S$ text, parsed to integer cents. */
const amountText = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.check((s) => parseAmount(s) !== null, 'invalid_amount'),
  v.transform((s) => parseAmount(s)!),
);
const topupFormSchema = v.object({ amount: amountText, method: v.picklist(TOPUP_METHODS, 'invalid_request') });

export function TopupPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Top up`}>
      <TopupScreen />
    </WalletPage>
  );
}

function TopupScreen() {
  const { t } = useLingui();
  const records = useTopups();
  // The top-up being paid: shown until the user starts a new one; the live copy comes from the list, which
  // reloads when the socket says the wallet changed, so it turns "credited" without a reload.
  const [active, setActive] = useState<TopupRecord | null>(null);
  const live = active ? (records.items.find((r) => r.id === active.id) ?? active) : null;
  const fresh = useWrite(requestTopup);
  const onFresh = async () => {
    if (!live) return;
    const res = await fresh.run({ amount: live.amount, method: live.method });
    if (res?.code === 0 && res.data) {
      setActive(res.data);
      records.reload();
      showToast(t`A fresh request is ready.`, 'success');
    }
  };
  return (
    <div className="section">
      {live ? (
        <PaymentPanel key={live.id} topup={live} onFresh={() => void onFresh()} freshBusy={fresh.busy} onDone={() => setActive(null)} />
      ) : (
        <FreshAfterSuccess onSuccess={records.reload}>
          {(done) => (
            <TopupForm
              onDone={(record) => {
                setActive(record);
                done();
              }}
            />
          )}
        </FreshAfterSuccess>
      )}
      <h2 className="section-title wallet-section-title">
        <Trans>Top-up records</Trans>
      </h2>
      <TopupList
        list={records}
        onShow={(record) => {
          setActive(record);
          window.scrollTo({ top: 0, behavior: 'smooth' });
        }}
      />
    </div>
  );
}

function TopupForm({ onDone }: { onDone: (record: TopupRecord) => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const online = useOnline();
  const limits = useLimits();
  const form = useSchemaForm(FORM, topupFormSchema, { amount: '', method: 'paynow' as (typeof TOPUP_METHODS)[number] }, lang);
  // One intent per top-up: a retry after a lost answer carries the same key (the same amount and method);
  // after a success the key is new.
  const write = useWrite(requestTopup);
  const [minChecked, setMinChecked] = useState(false);
  const { values, set, errors: schemaErrors } = form;

  const min = limits?.topup_min ?? 0;
  const cents = parseAmount(values.amount);
  const belowMin = cents !== null && cents < min;
  const errors = useMemo(
    () =>
      minChecked && belowMin && !schemaErrors.amount ? { ...schemaErrors, amount: errorMessage('topup_below_min', lang, { n: formatSgd(min) }) } : schemaErrors,
    [minChecked, belowMin, schemaErrors, lang, min],
  );

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!online) return;
    const input = form.check();
    setMinChecked(true);
    if (!input) return;
    if (input.amount < min) {
      document.getElementById(`${FORM}-amount`)?.focus();
      return;
    }
    const res = await write.run(input);
    if (res?.code === 0 && res.data) {
      if (res.data.status === 'credited') showToast(t`Top-up credited.`, 'success');
      void refreshUserInfo();
      onDone(res.data);
    }
  };

  return (
    <form className="card wallet-card" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="topup-form">
      {!online && (
        <p className="notice topup-offline" role="status" data-testid="topup-offline">
          <Trans>A top-up needs a connection. You are offline: connect to get a PayNow QR or transfer details.</Trans>
        </p>
      )}
      <Field label={t`Amount`} name="amount" form={FORM} errors={errors} hint={min > 0 ? t`Minimum ${formatSgd(min)}` : undefined}>
        <AmountInput {...fieldA11y(FORM, 'amount', errors)} testId="topup-amount" value={values.amount} onChange={(value) => set('amount', value)} />
      </Field>

      <div className="field">
        <span className="field__label" id="topup-method-label">
          <Trans>Method</Trans>
        </span>
        <div className="segmented wallet-segmented" role="group" aria-labelledby="topup-method-label">
          <button type="button" aria-pressed={values.method === 'paynow'} onClick={() => set('method', 'paynow')} data-testid="topup-method-paynow">
            PayNow
          </button>
          <button type="button" aria-pressed={values.method === 'bank'} onClick={() => set('method', 'bank')} data-testid="topup-method-bank">
            <Trans>Bank transfer</Trans>
          </button>
        </div>
      </div>
      <p className="field__hint wallet-hint">
        {values.method === 'paynow' ? (
          <Trans>Next you get a PayNow QR for exactly this amount, with its own reference. Scan it in your bank app, or save it and scan it from your photos.</Trans>
        ) : (
          <Trans>Next you get our bank account and a reference for exactly this amount. Your balance grows once the transfer arrives.</Trans>
        )}
      </p>
      <SubmitButton busy={write.busy} busyLabel={<Trans>Sending…</Trans>} testId="topup-submit" disabled={!online}>
        {values.method === 'paynow' ? <Trans>Get PayNow QR</Trans> : <Trans>Get transfer details</Trans>}
      </SubmitButton>
      <FormAlert id="topup-alert" message={write.error} />
    </form>
  );
}
