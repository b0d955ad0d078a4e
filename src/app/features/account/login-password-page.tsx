import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { localeToWire, type Locale } from '../../../shared/api';
import { loginPasswordChangeSchema } from '../../../shared/schemas/wallet';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';
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
  const { values, set, errors, a11y } = form;

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      onDone();
      showToast(t`Login password changed. Other devices have been signed out.`, 'success');
    }
  };

  return (
    <div className="section">
      <form className="card account-card" onSubmit={onSubmit} noValidate>
        <Field label={t`Current login password`} name="old_password" form={FORM} errors={errors}>
          <PasswordInput
            {...a11y('old_password')}
            testId="loginpwd-old"
            autoComplete="current-password"
            value={values.old_password}
            onChange={(v) => set('old_password', v)}
          />
        </Field>
        <Field label={t`New login password`} name="password" form={FORM} errors={errors}>
          <PasswordInput
            {...a11y('password')}
            testId="loginpwd-password"
            autoComplete="new-password"
            value={values.password}
            onChange={(v) => set('password', v)}
          />
        </Field>
        <PasswordChecklist id={`${FORM}-rules`} rules={loginPasswordRules(values.password)} min={LOGIN_PASSWORD_MIN} />
        <Field label={t`Repeat new login password`} name="repassword" form={FORM} errors={errors}>
          <PasswordInput
            {...a11y('repassword')}
            testId="loginpwd-repassword"
            autoComplete="new-password"
            value={values.repassword}
            onChange={(v) => set('repassword', v)}
          />
        </Field>
        <p className="field__hint account-hint">
          <Trans>It must differ from your withdrawal password. Other devices will be signed out.</Trans>
        </p>
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="loginpwd-submit">
          <Trans>Change login password</Trans>
        </SubmitButton>
        <FormAlert id="loginpwd-alert" message={write.error} />
      </form>
    </div>
  );
}
