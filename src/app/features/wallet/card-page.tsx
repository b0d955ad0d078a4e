import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { formatDate } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { bankCardSchema, sameName, type BankCard } from '../../../shared/schemas/wallet';
import type { UserInfo } from '../../../shared/schemas/user';
import { Field, InputField } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { bindCard, useCard } from './api';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { WalletPage } from './wallet-parts';
import { maskPaynow } from './mask';

// /pages/profile/card: bind or change the payout account, a bank account or a PayNow number (8-digit
// mobile; a UEN for corporate users). The server keeps one binding per user and a POST replaces it whole,
// so the form binds one method at a time and says so. The holder name must equal the registered name.

const FORM = 'card';

/** Banks in Singapore that take FAST / GIRO payouts (a suggestion list; any bank name is accepted). */
const SG_BANKS = [
  'DBS Bank',
  'POSB',
  'OCBC Bank',
  'UOB',
  'Standard Chartered',
  'HSBC',
  'Maybank',
  'Citibank',
  'Bank of China',
  'ICBC',
  'CIMB Bank',
  'RHB Bank',
  'Trust Bank',
  'GXS Bank',
];

/** The names a holder may carry (the server's rule, card.ts): "first last", and the company for corporate users. */
export function registeredNames(info: Pick<UserInfo, 'type' | 'first_name' | 'last_name' | 'company'>): string[] {
  const names: string[] = [];
  if (info.first_name.trim() && info.last_name.trim()) names.push(`${info.first_name.trim()} ${info.last_name.trim()}`);
  if (info.type === 'corporate' && info.company.trim()) names.push(info.company.trim());
  return names;
}

export function CardPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Bank card / PayNow`}>
      <CardScreen />
    </WalletPage>
  );
}

function CardScreen() {
  const { info } = useUserInfo();
  const { card, error } = useCard();
  const [editing, setEditing] = useState(false);
  const names = info ? registeredNames(info) : [];
  return (
    <div className="section">
      {card && !editing && <BoundAccount card={card} onChange={() => setEditing(true)} />}
      {card === undefined && error && <p className="notice notice--warn wallet-notice">{error}</p>}
      {info && names.length === 0 && (
        <p className="notice notice--warn wallet-notice" role="status">
          <Trans>
            Please complete your name in <Link to="/pages/profile/profile">personal information</Link> first: the account holder name must match it.
          </Trans>
        </p>
      )}
      {(card === null || editing) && info && <CardForm info={info} names={names} card={card ?? null} onDone={() => setEditing(false)} />}
    </div>
  );
}

function BoundAccount({ card, onChange }: { card: BankCard; onChange: () => void }) {
  return (
    <section className="card wallet-card bound" aria-labelledby="bound-title" data-testid="bound-account">
      <h2 className="wallet-card__title" id="bound-title">
        <Trans>Your payout account</Trans>
      </h2>
      <dl className="summary">
        {card.bank_name && (
          <div className="summary__row">
            <dt>
              <Trans>Bank</Trans>
            </dt>
            <dd>
              {card.bank_name} <span className="mono">{card.account_no}</span>
            </dd>
          </div>
        )}
        {card.paynow && (
          <div className="summary__row">
            <dt>PayNow</dt>
            <dd className="mono">{maskPaynow(card.paynow, card.paynow_type)}</dd>
          </div>
        )}
        <div className="summary__row">
          <dt>
            <Trans>Holder</Trans>
          </dt>
          <dd>{card.holder_name}</dd>
        </div>
        <div className="summary__row">
          <dt>
            <Trans>Updated</Trans>
          </dt>
          <dd>{formatDate(card.updated_at_ms)}</dd>
        </div>
      </dl>
      <button type="button" className="btn btn--ghost btn--block" onClick={onChange} data-testid="card-change">
        <Trans>Change account</Trans>
      </button>
    </section>
  );
}

type Method = 'bank' | 'paynow';

function CardForm({ info, names, card, onDone }: { info: UserInfo; names: string[]; card: BankCard | null; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const [method, setMethod] = useState<Method>(card && !card.bank_name && card.paynow ? 'paynow' : 'bank');
  const form = useSchemaForm(FORM, bankCardSchema, { bank_name: card?.bank_name ?? '', account_no: '', holder_name: names[0] ?? '', paynow: '', password: '' }, lang);
  const write = useWrite(bindCard);
  const corporate = info.type === 'corporate';
  const { values, set, setValues, errors: schemaErrors, a11y } = form;
  const [holderChecked, setHolderChecked] = useState(false);
  const filled = useRef(names.length > 0);

  // The name may arrive after the form opened (user info refreshing): offer it as the holder name.
  useEffect(() => {
    if (filled.current || !names[0]) return;
    filled.current = true;
    setValues((old) => ({ ...old, holder_name: old.holder_name || names[0]! }));
  }, [names, setValues]);

  // The holder rule is the server's to decide, but a mismatch is visible here before anything is sent.
  const holderOk = names.some((n) => sameName(n, values.holder_name));
  const errors = useMemo(
    () =>
      holderChecked && values.holder_name.trim() && !holderOk && !schemaErrors.holder_name
        ? { ...schemaErrors, holder_name: errorMessage('holder_mismatch', lang) }
        : schemaErrors,
    [holderChecked, holderOk, schemaErrors, values.holder_name, lang],
  );

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    // Only the chosen method is sent: the binding is replaced whole.
    const input = form.check();
    setHolderChecked(true);
    if (!input || !holderOk) {
      if (input && !holderOk) document.getElementById(`${FORM}-holder_name`)?.focus();
      return;
    }
    const res = await write.run(input);
    if (res?.code === 0) {
      showToast(t`Payout account saved.`, 'success');
      void refreshUserInfo();
      onDone();
    }
  };

  const choose = (next: Method) => {
    setMethod(next);
    setValues((old) => ({ ...old, bank_name: next === 'bank' ? (card?.bank_name ?? old.bank_name) : '', account_no: '', paynow: '' }));
  };

  return (
    <form className="card wallet-card" onSubmit={onSubmit} noValidate data-testid="card-form">
      <h2 className="wallet-card__title">{card ? <Trans>Change payout account</Trans> : <Trans>Bind a payout account</Trans>}</h2>
      <div className="segmented wallet-segmented" role="group" aria-label={t`Payout method`}>
        <button type="button" aria-pressed={method === 'bank'} onClick={() => choose('bank')} data-testid="card-method-bank">
          <Trans>Bank account</Trans>
        </button>
        <button type="button" aria-pressed={method === 'paynow'} onClick={() => choose('paynow')} data-testid="card-method-paynow">
          PayNow
        </button>
      </div>
      {card && (
        <p className="field__hint wallet-hint">
          <Trans>Saving replaces your current payout account.</Trans>
        </p>
      )}

      {method === 'bank' ? (
        <>
          <Field label={t`Bank name`} name="bank_name" form={FORM} errors={errors}>
            <input
              {...a11y('bank_name')}
              data-testid="card-bank-name"
              className="input"
              list="sg-banks"
              autoComplete="off"
              maxLength={60}
              value={values.bank_name}
              onChange={(e) => set('bank_name', e.target.value)}
            />
            <datalist id="sg-banks">
              {SG_BANKS.map((b) => (
                <option key={b} value={b} />
              ))}
            </datalist>
          </Field>
          <InputField
            label={t`Account number`}
            form={FORM}
            errors={errors}
            hint={t`6 to 20 digits; spaces and dashes are fine.`}
            a11y={a11y('account_no')}
            testId="card-account-no"
            className="input mono"
            inputMode="numeric"
            autoComplete="off"
            maxLength={26}
            value={values.account_no}
            onChange={(value) => set('account_no', value)}
          />
        </>
      ) : (
        <InputField
          label={corporate ? t`PayNow mobile number or UEN` : t`PayNow mobile number`}
          form={FORM}
          errors={errors}
          hint={corporate ? t`8-digit mobile number, or your company's UEN (e.g. 201912345K).` : t`The 8-digit mobile number registered with PayNow.`}
          a11y={a11y('paynow')}
          testId="card-paynow"
          className="input mono"
          inputMode={corporate ? 'text' : 'numeric'}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={12}
          value={values.paynow}
          onChange={(value) => set('paynow', value)}
        />
      )}

      <InputField
        label={t`Account holder name`}
        form={FORM}
        errors={errors}
        a11y={a11y('holder_name')}
        testId="card-holder"
        autoComplete="name"
        maxLength={140}
        value={values.holder_name}
        onChange={(value) => set('holder_name', value)}
      />
      <div className="notice wallet-rule" data-testid="holder-rule">
        <p>
          <Trans>The holder name must match your registered name, so money can only go to you.</Trans>
        </p>
        {names.length > 0 && (
          <p>
            <Trans>Registered name:</Trans> <strong>{names.join(' / ')}</strong>{' '}
            <span className="muted">
              <Trans>(capitals and extra spaces do not matter)</Trans>
            </span>
          </p>
        )}
        <p>
          <Link to="/pages/profile/profile">
            <Trans>Edit personal information</Trans>
          </Link>
        </p>
      </div>

      {info.has_withdraw_password && (
        <Field label={t`Withdrawal password`} name="password" form={FORM} errors={errors}>
          <PasswordInput
            {...a11y('password')}
            testId="card-password"
            autoComplete="current-password"
            value={values.password}
            onChange={(v) => set('password', v)}
          />
        </Field>
      )}

      <div className="wallet-actions">
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="card-submit" disabled={names.length === 0}>
          <Trans>Save payout account</Trans>
        </SubmitButton>
        {card && (
          <button type="button" className="btn btn--ghost btn--block" onClick={onDone}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
      <FormAlert id="card-alert" message={write.error} />
    </form>
  );
}
