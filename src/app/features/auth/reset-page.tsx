import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { LanguageToggle } from '../../components/language-toggle';
import { keepNotice } from '../../components/page-notice';
import { clearSession, getSession } from '../../lib/storage';
import { useSchemaForm } from '../../lib/form';
import { PATHS, localeToWire, type Locale } from '../../../shared/api';
import { resetSchema } from '../../../shared/schemas/auth';
import { CodeAndPasswords, CodeFormSubmit, useCodeFormSubmit } from './code-form';
import './auth.css';

export function ResetPage({ email }: { email?: string }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm('reset', resetSchema, { email: email ?? '', code: '', password: '', repassword: '' }, lang);
  const { busy, serverError, setServerError, onSubmit } = useCodeFormSubmit(PATHS.reset, form.check, (_res, input) => {
    // A reset ends every session of the account, this device's included.
    if (getSession().login.account.toLowerCase() === input.email) clearSession();
    keepNotice(t`Password updated. Please log in with your new password.`, 'success', { path: '/pages/login/index', toastMs: 2500 });
    void router.navigate({ to: '/pages/login/index', replace: true });
  });

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

      <form className="auth-card card" onSubmit={(e) => void onSubmit(e)} noValidate>
        <CodeAndPasswords
          form="reset"
          scene="reset"
          lang={lang}
          values={values}
          set={set}
          errors={errors}
          a11y={a11y}
          onServerError={setServerError}
          passwordLabel={t`New password`}
          repeatLabel={t`Repeat new password`}
        />

        <CodeFormSubmit form="reset" busy={busy} busyLabel={<Trans>Saving…</Trans>} serverError={serverError}>
          <Trans>Set new password</Trans>
        </CodeFormSubmit>

        <p className="auth-switch">
          <Link to="/pages/login/index">
            <Trans>Back to log in</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}
