import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as v from 'valibot';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { formatSgd } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { requiredText } from '../../../shared/schemas/common';
import { TOPUP_METHODS } from '../../../shared/schemas/wallet';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { refreshUserInfo, useMemberId } from '../../lib/user-info';
import { requestTopup, useLimits, useTopups } from './api';
import { parseAmount } from './amount';
import { PLATFORM_PAYEE } from './payee';
import { TopupList } from './records';
import { FreshAfterSuccess } from '../../components/forms/fresh-after-success';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { AmountInput, WalletPage } from './wallet-parts';

// /pages/profile/topup (route chosen in the pattern of SPEC's profile screens): the top-up form, with the
// platform's payee details for the chosen method, and the user's top-up records (pending / credited /
// rejected) below it. A top-up is a statement "I sent S$X with reference R"; an operator credits it when
// the money arrives.

const FORM = 'topup';

/** The form's amount: the typed S$ text, parsed to integer cents. */
const amountText = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.check((s) => parseAmount(s) !== null, 'invalid_amount'),
  v.transform((s) => parseAmount(s)!),
);
const topupFormSchema = v.object({ amount: amountText, method: v.picklist(TOPUP_METHODS, 'invalid_request'), reference: requiredText(40) });

/** A reference the bank statement can carry: CNP, the member id, four random characters. */
export function suggestReference(memId: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `CNP${memId}${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

export function TopupPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Top up`}>
      <TopupScreen />
    </WalletPage>
  );
}

function TopupScreen() {
  const records = useTopups();
  // A new top-up after a success is a fresh form (new reference, no errors from the last submit).
  return (
    <div className="section">
      <FreshAfterSuccess onSuccess={records.reload}>{(done) => <TopupForm onDone={done} />}</FreshAfterSuccess>
      <h2 className="section-title wallet-section-title">
        <Trans>Top-up records</Trans>
      </h2>
      <TopupList list={records} />
    </div>
  );
}

function TopupForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const memId = useMemberId();
  const limits = useLimits();
  const form = useSchemaForm(
    FORM,
    topupFormSchema,
    { amount: '', method: 'paynow' as (typeof TOPUP_METHODS)[number], reference: suggestReference(memId) },
    lang,
  );
  // One intent per top-up: a retry after a lost answer carries the same key (the same amount, method and
  // reference); after a success the key and the suggested reference are both new.
  const write = useWrite(requestTopup);
  const [minChecked, setMinChecked] = useState(false);
  const { values, set, errors: schemaErrors, a11y } = form;

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
    const input = form.check();
    setMinChecked(true);
    if (!input) return;
    if (input.amount < min) {
      document.getElementById(`${FORM}-amount`)?.focus();
      return;
    }
    const res = await write.run(input);
    if (res?.code === 0 && res.data) {
      showToast(res.data.status === 'credited' ? t`Top-up credited.` : t`Top-up submitted. We will credit it when the transfer arrives.`, 'success');
      void refreshUserInfo();
      onDone();
    }
  };

  const payee = PLATFORM_PAYEE[values.method];
  return (
    <form className="card wallet-card" onSubmit={onSubmit} noValidate data-testid="topup-form">
      <Field label={t`Amount`} name="amount" form={FORM} errors={errors} hint={min > 0 ? t`Minimum ${formatSgd(min)}` : undefined}>
        <AmountInput {...a11y('amount')} testId="topup-amount" value={values.amount} onChange={(value) => set('amount', value)} />
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

      <section className="payee" aria-labelledby="payee-title" data-testid="payee">
        <h2 className="payee__title" id="payee-title">
          {values.method === 'paynow' ? <Trans>Pay by PayNow to</Trans> : <Trans>Transfer to</Trans>}
        </h2>
        <dl className="summary">
          <div className="summary__row">
            <dt>
              <Trans>Name</Trans>
            </dt>
            <dd>{payee.name}</dd>
          </div>
          {values.method === 'paynow' ? (
            <div className="summary__row">
              <dt>UEN</dt>
              <dd className="mono" data-testid="payee-uen">
                {PLATFORM_PAYEE.paynow.uen}
              </dd>
            </div>
          ) : (
            <>
              <div className="summary__row">
                <dt>
                  <Trans>Bank</Trans>
                </dt>
                <dd>{PLATFORM_PAYEE.bank.bank}</dd>
              </div>
              <div className="summary__row">
                <dt>
                  <Trans>Account</Trans>
                </dt>
                <dd className="mono" data-testid="payee-account">
                  {PLATFORM_PAYEE.bank.account}
                </dd>
              </div>
            </>
          )}
          <div className="summary__row summary__row--strong">
            <dt>
              <Trans>Reference</Trans>
            </dt>
            <dd className="mono">{values.reference || '—'}</dd>
          </div>
        </dl>
        <p className="payee__warn" role="note">
          <Trans>Put the reference below in your transfer's reference or comments field. Without it we cannot match your money to your account.</Trans>
        </p>
      </section>

      <Field label={t`Reference`} name="reference" form={FORM} errors={errors} hint={t`The same text you put in the transfer. You may change it.`}>
        <input
          {...a11y('reference')}
          data-testid="topup-reference"
          className="input mono"
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={40}
          value={values.reference}
          onChange={(e) => set('reference', e.target.value)}
        />
      </Field>
      <p className="field__hint wallet-hint">
        <Trans>Send the money first, then tell us here. Your balance grows once we confirm the transfer.</Trans>
      </p>
      <SubmitButton busy={write.busy} busyLabel={<Trans>Sending…</Trans>} testId="topup-submit">
        <Trans>I have sent the money</Trans>
      </SubmitButton>
      <FormAlert id="topup-alert" message={write.error} />
    </form>
  );
}
