import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field, InputField } from '../../components/forms/field';
import { PasswordInput } from '../../components/forms/password-input';
import { CARD_FORM as FORM, type CardFormState, type Method } from './use-card-form';
import { localMobile } from '../../../shared/schemas/auth';

// The payout account form's parts: the method switch, the fields of each method, the holder name with its
// rule, and the payment password.

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

export function MethodSwitch({ method, onChoose }: { method: Method; onChoose: (m: Method) => void }) {
  const { t } = useLingui();
  return (
    <div className="segmented wallet-segmented" role="group" aria-label={t`Payout method`}>
      <button type="button" aria-pressed={method === 'bank'} onClick={() => onChoose('bank')} data-testid="card-method-bank">
        <Trans>Bank account</Trans>
      </button>
      <button type="button" aria-pressed={method === 'paynow'} onClick={() => onChoose('paynow')} data-testid="card-method-paynow">
        PayNow
      </button>
    </div>
  );
}

type FieldsProps = Pick<CardFormState, 'values' | 'set' | 'a11y' | 'errors'>;

export function BankFields({ values, set, a11y, errors }: FieldsProps) {
  const { t } = useLingui();
  return (
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
  );
}

export function PaynowField({ values, set, a11y, errors, corporate }: FieldsProps & { corporate: boolean }) {
  const { t } = useLingui();
  return (
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
      maxLength={20}
      value={values.paynow}
      onChange={(value) => set('paynow', localMobile(value))}
    />
  );
}

/** The holder name, and the rule it follows with the registered names it may match. */
export function HolderField({ values, set, a11y, errors, names }: FieldsProps & { names: string[] }) {
  const { t } = useLingui();
  return (
    <>
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
              <Trans>(in any order; capitals and spaces do not matter)</Trans>
            </span>
          </p>
        )}
        <p>
          <Link to="/pages/profile/profile">
            <Trans>Edit personal information</Trans>
          </Link>
        </p>
      </div>
    </>
  );
}

export function CardPasswordField({ values, set, a11y, errors }: FieldsProps) {
  const { t } = useLingui();
  return (
    <Field label={t`Payment password`} name="password" form={FORM} errors={errors}>
      <PasswordInput {...a11y('password')} testId="card-password" autoComplete="current-password" value={values.password} onChange={(v) => set('password', v)} />
    </Field>
  );
}
