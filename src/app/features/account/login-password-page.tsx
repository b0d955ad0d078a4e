import { Trans, useLingui } from '@lingui/react/macro';
import { keepNotice } from '../../components/page-notice';
import { useSchemaForm } from '../../lib/form';
import { localeToWire, type Locale } from '../../../shared/api';
import { loginPasswordChangeSchema } from '../../../shared/schemas/wallet';
import { PasswordField } from '../../components/forms/password-field';
import { FormAlert } from '../../components/forms/form-alert';
import { changeLoginPassword } from './api';
import { LOGIN_PASSWORD_MIN, loginPasswordRules } from './password-rules';
import { FreshAfterSuccess } from '../../components/forms/fresh-after-success';
import { PasswordChecklist } from './password-checklist';
import { SubmitButton } from '../../components/forms/submit-button';
import { AccountPage } from './account-page';
import { useWrite } from '../../components/forms/use-write';

// /pages/profile/loginpwd: change the login password (old, new, repeat). The server signs out every other
// session of the user; this one stays signed in.

const FORM = 'loginpwd';

export function LoginPasswordPage() {
  const { t } = useLingui();
  return (
    <AccountPage title={t`Login password`}>
      <FreshAfterSuccess>{(done) => <LoginPasswordForm onDone={done} />}</FreshAfterSuccess>
    </AccountPage>
  );
}

function LoginPasswordForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm(FORM, loginPasswordChangeSchema, { old_password: '', password: '', repassword: '' }, lang);
  const write = useWrite(changeLoginPassword);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      // The change ended the account's notification devices (docs/product.md#notifications): this one
      // turns them on again.
      void import('../../lib/push').then((m) => m.resyncPush());
      onDone();
      keepNotice(t`Login password changed. Other devices have been signed out.`, 'success');
    }
  };

  return (
    <div className="section">
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        <PasswordField form={form} formId={FORM} name="old_password" label={t`Current login password`} testId="loginpwd-old" autoComplete="current-password" />
        <PasswordField form={form} formId={FORM} name="password" label={t`New login password`} testId="loginpwd-password" autoComplete="new-password" />
        <PasswordChecklist id={`${FORM}-rules`} rules={loginPasswordRules(form.values.password)} min={LOGIN_PASSWORD_MIN} />
        <PasswordField form={form} formId={FORM} name="repassword" label={t`Repeat new login password`} testId="loginpwd-repassword" autoComplete="new-password" />
        <p className="field__hint account-hint">
          <Trans>It must differ from your payment password. Other devices will be signed out.</Trans>
        </p>
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="loginpwd-submit">
          <Trans>Change login password</Trans>
        </SubmitButton>
        <FormAlert id="loginpwd-alert" message={write.error} />
      </form>
    </div>
  );
}
