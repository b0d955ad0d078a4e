import { useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { post, type ApiResult } from '../../lib/api';
import { saveLogin } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { useSchemaForm, type FieldErrors } from '../../lib/form';
import { PATHS, localeToWire, type Locale } from '../../../shared/api';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';
import { LanguageToggle } from '../../components/language-toggle';
import { loginSchema, type LoginInfo } from '../../../shared/schemas/auth';
import { TEXT_MAX_LENGTH } from '../../../shared/constants';
import { passkeysSupported, signInWithPasskey } from './passkey-sign-in';
import './auth.css';

type AccountType = 'personal' | 'corporate';

export function LoginPage({ redirect }: { redirect?: string }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const online = useOnline();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm('login', loginSchema, { email: '', password: '', type: 'personal' as AccountType, agree: true }, lang);
  const [busy, setBusy] = useState<'login' | 'passkey' | 'visitor' | null>(null);
  const [serverError, setServerError] = useState('');

  const finish = (res: ApiResult<LoginInfo>, to: string) => {
    if (res.code === 0 && res.data) {
      saveLogin(res.data);
      void router.navigate({ href: to, replace: true });
      return;
    }
    // Shown once, inline under the button (the request is quiet, so a transport failure is not toasted too).
    setServerError(res.msg);
  };

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setServerError('');
    const input = form.check();
    if (!input || busy) return;
    setBusy('login');
    try {
      finish(await post<LoginInfo>(PATHS.login, { ...input }, { quiet: true }), redirect ?? '/pages/profile/index');
    } finally {
      setBusy(null);
    }
  };

  const withPasskey = async () => {
    if (busy) return;
    setServerError('');
    setBusy('passkey');
    try {
      finish(await signInWithPasskey(), redirect ?? '/pages/profile/index');
    } finally {
      setBusy(null);
    }
  };

  const asVisitor = async () => {
    if (busy) return;
    setServerError('');
    setBusy('visitor');
    try {
      finish(await post<LoginInfo>(PATHS.visitor, {}, { quiet: true }), '/');
    } finally {
      setBusy(null);
    }
  };

  const { values, set, errors, a11y } = form;
  return (
    <div className="page auth-page">
      <NavBar title={t`Log in`} right={<LanguageToggle />} />
      <div className="auth-hero">
        <span className="auth-hero__mark" aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24">
            <path d="M12 3c4 3 6 6 6 9a6 6 0 0 1-12 0c0-3 2-6 6-9zm0 6v12" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h2 className="auth-hero__title">
          <Trans>Welcome back</Trans>
        </h2>
        <p className="auth-hero__text">
          <Trans>Log in to manage your carbon credits and wallet.</Trans>
        </p>
      </div>

      <form className="auth-card card" onSubmit={(e) => void onSubmit(e)} noValidate aria-describedby={serverError ? 'login-alert' : undefined}>
        <AccountTypeSwitch value={values.type} onChange={(type) => set('type', type)} />

        <Field label={t`Email`} name="email" errors={errors}>
          <input
            {...a11y('email')}
            data-testid="login-email"
            className="input"
            type="email"
            inputMode="email"
            autoComplete="username"
            maxLength={TEXT_MAX_LENGTH}
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
          />
        </Field>
        <Field label={t`Password`} name="password" form="login" errors={errors}>
          <PasswordInput {...a11y('password')} testId="login-password" autoComplete="current-password" value={values.password} onChange={(value) => set('password', value)} />
        </Field>
        <div className="auth-row">
          <Link to="/pages/login/reset" search={values.email ? { email: values.email.trim() } : {}} className="auth-link">
            <Trans>Forgot password?</Trans>
          </Link>
        </div>

        {/* The terms are ticked once, at registration; signing in keeps to them (docs/product.md#validation). */}
        <p className="muted auth-terms-note">
          <Trans>
            Logging in means you keep to the <Link to="/pages/other/protocol">User Agreement</Link> and <Link to="/pages/other/privacy">Privacy Policy</Link> you accepted when you registered.
          </Trans>
        </p>

        <button type="submit" className="btn btn--block" data-testid="login-submit" disabled={!online || busy !== null}>
          {!online ? <Trans>Needs a connection</Trans> : busy === 'login' ? <Trans>Logging in…</Trans> : <Trans>Log in</Trans>}
        </button>
        {passkeysSupported() && (
          <button type="button" className="btn btn--ghost btn--block auth-passkey" data-testid="login-passkey" onClick={() => void withPasskey()} disabled={!online || busy !== null}>
            {busy === 'passkey' ? <Trans>Waiting for your device…</Trans> : <Trans>Sign in with a passkey</Trans>}
          </button>
        )}
        <FormAlert id="login-alert" message={serverError} />

        <p className="auth-switch">
          <Trans>New to Canopy?</Trans>{' '}
          <Link to="/pages/register/index">
            <Trans>Create an account</Trans>
          </Link>
        </p>
      </form>

      <div className="auth-visitor">
        <button type="button" className="btn btn--ghost btn--block" onClick={() => void asVisitor()} disabled={!online || busy !== null}>
          {!online ? <Trans>Needs a connection</Trans> : busy === 'visitor' ? <Trans>One moment…</Trans> : <Trans>Continue as visitor</Trans>}
        </button>
        <p className="muted auth-visitor__note">
          <Trans>Visitors can browse projects and news but cannot buy, sell or withdraw.</Trans>
        </p>
      </div>
    </div>
  );
}

/* Pieces shared by the login, register and reset forms. */

/** Personal / Corporate (docs/product.md#roles: login types; the visitor has its own button). */
export function AccountTypeSwitch({ value, onChange }: { value: AccountType; onChange: (type: AccountType) => void }) {
  const { t } = useLingui();
  return (
    <div className="segmented auth-type" role="group" aria-label={t`Account type`}>
      <button type="button" aria-pressed={value === 'personal'} onClick={() => onChange('personal')}>
        <Trans>Personal</Trans>
      </button>
      <button type="button" aria-pressed={value === 'corporate'} onClick={() => onChange('corporate')}>
        <Trans>Corporate</Trans>
      </button>
    </div>
  );
}

/** "I have read and agree to ..." at registration (docs/product.md#validation); the box sits in a 44 px touch target of its own, apart from the links. */
export function TermsCheck({ form, checked, onChange, errors }: { form: string; checked: boolean; onChange: (agree: boolean) => void; errors: FieldErrors }) {
  const id = `${form}-agree`;
  return (
    <div className="field auth-terms">
      <label className="check" htmlFor={id}>
        <span className="check__hit">
          <input
            id={id}
            name="agree"
            data-testid={`${form}-agree`}
            type="checkbox"
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            aria-invalid={errors.agree ? true : undefined}
            aria-describedby={errors.agree ? `${id}-error` : undefined}
          />
        </span>
        <span>
          <Trans>
            I have read and agree to the <Link to="/pages/other/protocol">User Agreement</Link> and <Link to="/pages/other/privacy">Privacy Policy</Link>
          </Trans>
        </span>
      </label>
      {errors.agree && (
        <p className="field__error" id={`${id}-error`}>
          {errors.agree}
        </p>
      )}
    </div>
  );
}
