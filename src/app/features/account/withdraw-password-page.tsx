import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { localeToWire, type Locale } from '../../../shared/api';
import { withdrawPasswordSetSchema } from '../../../shared/schemas/wallet';
import { PasswordField } from '../../components/forms/password-field';
import { FormAlert } from '../../components/forms/form-alert';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { setWithdrawPassword } from './api';
import { WITHDRAW_PASSWORD_MIN, withdrawPasswordRules } from './password-rules';
import { FreshAfterSuccess } from '../../components/forms/fresh-after-success';
import { PasswordChecklist } from './password-checklist';
import { SubmitButton } from '../../components/forms/submit-button';
import { AccountPage } from './account-page';
import { useWrite } from '../../components/forms/use-write';

// /pages/profile/withdpwd: set or change the withdrawal password (also the payment password of orders).
// Rules (docs/product.md#validation, docs/product.md#accounts): >= 10 characters with a digit, upper, lower
// and a special character; not the login password; the login password proves it is the user, and changing one
// that exists needs the current one too (docs/decisions/0004-trust.md).

const FORM = 'withdpwd';

export function WithdrawPasswordPage() {
  const { t } = useLingui();
  return (
    <AccountPage title={t`Withdrawal password`}>
      <FreshAfterSuccess>{(done) => <WithdrawPasswordForm onDone={done} />}</FreshAfterSuccess>
    </AccountPage>
  );
}

function WithdrawPasswordForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const { info } = useUserInfo();
  const form = useSchemaForm(FORM, withdrawPasswordSetSchema, { password: '', repassword: '', login_password: '', old_password: '' }, lang);
  const write = useWrite(setWithdrawPassword);
  const rules = withdrawPasswordRules(form.values.password, form.values.login_password);
  const hasOne = info?.has_withdraw_password === true;

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      onDone();
      showToast(hasOne ? t`Withdrawal password changed.` : t`Withdrawal password set.`, 'success');
      void refreshUserInfo();
    }
  };

  return (
    <div className="section">
      {info?.locked && (
        <p className="notice notice--warn account-notice" role="status">
          <Trans>Withdrawals are locked after repeated wrong withdrawal passwords. Please contact the administrator to unlock your account.</Trans>
        </p>
      )}
      <p className="notice account-notice">
        {hasOne ? (
          <Trans>You have a withdrawal password. Enter it and a new one to change it.</Trans>
        ) : (
          <Trans>Set a withdrawal password. You will need it to withdraw and to pay for orders.</Trans>
        )}
      </p>
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        {hasOne && (
          <PasswordField
            form={form}
            formId={FORM}
            name="old_password"
            label={t`Current withdrawal password`}
            hint={t`Forgotten it? Contact the administrator to reset it.`}
            testId="withdpwd-old-password"
            autoComplete="current-password"
          />
        )}
        <PasswordField
          form={form}
          formId={FORM}
          name="password"
          label={hasOne ? t`New withdrawal password` : t`Withdrawal password`}
          testId="withdpwd-password"
          autoComplete="new-password"
        />
        <PasswordChecklist id={`${FORM}-rules`} rules={rules} min={WITHDRAW_PASSWORD_MIN} />
        <PasswordField form={form} formId={FORM} name="repassword" label={t`Repeat withdrawal password`} testId="withdpwd-repassword" autoComplete="new-password" />
        <PasswordField
          form={form}
          formId={FORM}
          name="login_password"
          label={t`Login password`}
          hint={t`To confirm it is you. Five wrong login passwords lock your login.`}
          testId="withdpwd-login-password"
          autoComplete="current-password"
        />
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="withdpwd-submit" disabled={info?.locked === true}>
          {hasOne ? <Trans>Change withdrawal password</Trans> : <Trans>Set withdrawal password</Trans>}
        </SubmitButton>
        <FormAlert id="withdpwd-alert" message={write.error} />
      </form>
    </div>
  );
}
