import { useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { LanguageToggle } from '../../components/language-toggle';
import { showToast } from '../../components/toast';
import { post } from '../../lib/api';
import { clearSession, getSession } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { useSchemaForm } from '../../lib/form';
import { PATHS, localeToWire, type Locale } from '../../../shared/api';
import { resetSchema } from '../../../shared/schemas/auth';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';
import { useIntentKey } from '../../lib/intent-key';
import { CodeInput, EmailWithCode } from './register-page';
import './auth.css';

export function ResetPage({ email }: { email?: string }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const online = useOnline();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm('reset', resetSchema, { email: email ?? '', code: '', password: '', repassword: '' }, lang);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState('');
  const { keyFor: intent } = useIntentKey();

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setServerError('');
    const input = form.check();
    if (!input || busy) return;
    setBusy(true);
    try {
      const res = await post(PATHS.reset, { ...input }, { idempotencyKey: intent(input) });
      if (res.code === 0) {
        // A reset ends every session of the account, this device's included.
        if (getSession().login.account.toLowerCase() === input.email) clearSession();
        showToast(t`Password updated. Please log in with your new password.`, 'success', 2500);
        void router.navigate({ to: '/pages/login/index', replace: true });
        return;
      }
      setServerError(res.msg);
      if (res.code > 1000) showToast(res.msg, 'error');
    } finally {
      setBusy(false);
    }
  };

  const { values, set, errors, a11y } = form;
  return (
    <div className="page auth-page">
      <NavBar title={t`Reset password`} right={<LanguageToggle />} />
      <div className="auth-hero auth-hero--compact">
        <h2 className="auth-hero__title">
          <Trans>Forgot your password?</Trans>
        </h2>
        <p className="auth-hero__text">
          <Trans>We will email you a 6-digit code. Enter it here with your new password.</Trans>
        </p>
      </div>

      <form className="auth-card card" onSubmit={onSubmit} noValidate>
        <EmailWithCode
          form="reset"
          scene="reset"
          lang={lang}
          email={values.email}
          onEmail={(value) => set('email', value)}
          error={errors.email}
          onServerError={setServerError}
        />
        <Field label={t`Verification code`} name="code" form="reset" errors={errors}>
          <CodeInput {...a11y('code')} testId="reset-code" value={values.code} onChange={(code) => set('code', code)} />
        </Field>
        <Field label={t`New password`} name="password" form="reset" errors={errors} hint={t`At least 8 characters with digits, uppercase and lowercase letters.`}>
          <PasswordInput {...a11y('password')} testId="reset-password" autoComplete="new-password" value={values.password} onChange={(value) => set('password', value)} />
        </Field>
        <Field label={t`Repeat new password`} name="repassword" form="reset" errors={errors}>
          <PasswordInput {...a11y('repassword')} testId="reset-repassword" autoComplete="new-password" value={values.repassword} onChange={(value) => set('repassword', value)} />
        </Field>

        <button type="submit" className="btn btn--block" data-testid="reset-submit" disabled={!online || busy}>
          {!online ? <Trans>Needs a connection</Trans> : busy ? <Trans>Saving…</Trans> : <Trans>Set new password</Trans>}
        </button>
        <FormAlert id="reset-alert" message={serverError} />

        <p className="auth-switch">
          <Link to="/pages/login/index">
            <Trans>Back to log in</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}
