import { useEffect, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { LanguageToggle } from '../../components/language-toggle';
import { showToast } from '../../components/toast';
import { post } from '../../lib/api';
import { getBaseSettings, saveLogin } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { useSchemaForm, validate } from '../../lib/form';
import { PATHS, localeToWire, type Locale } from '../../../shared/api';
import { registerSchema, sendCodeSchema, type LoginInfo } from '../../../shared/schemas/auth';
import type { Lang } from '../../../shared/errors';
import { TEXT_MAX_LENGTH } from '../../../shared/constants';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';
import { useIntentKey } from '../../lib/intent-key';
import { AccountTypeSwitch, TermsCheck } from './login-page';
import './auth.css';

const RESEND_SECONDS = 60;

export function RegisterPage({ invite }: { invite?: string }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const online = useOnline();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm(
    'register',
    registerSchema,
    {
      email: '',
      code: '',
      password: '',
      repassword: '',
      invite_code: invite ?? '',
      type: 'personal' as 'personal' | 'corporate',
      company: '',
      uen: '',
      agree: false,
    },
    lang,
  );
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState('');
  const { keyFor: intent } = useIntentKey();
  const closed = getBaseSettings()?.registration_open === false;

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setServerError('');
    const input = form.check();
    if (!input || busy) return;
    setBusy(true);
    try {
      const res = await post<LoginInfo>(PATHS.register, { ...input }, { idempotencyKey: intent(input) });
      if (res.code === 0 && res.data) {
        saveLogin(res.data);
        showToast(t`Welcome to Canopy!`, 'success');
        void router.navigate({ to: '/pages/profile/index', replace: true });
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
      <NavBar title={t`Create account`} right={<LanguageToggle />} />
      <div className="auth-hero auth-hero--compact">
        <h2 className="auth-hero__title">
          <Trans>Join Canopy</Trans>
        </h2>
        <p className="auth-hero__text">
          <Trans>Offset your footprint with verified carbon credits, priced in SGD.</Trans>
        </p>
      </div>

      <form className="auth-card card" onSubmit={onSubmit} noValidate>
        {closed && (
          <p className="notice notice--warn auth-notice" role="status">
            <Trans>Registration is currently closed. Please try again later.</Trans>
          </p>
        )}
        <AccountTypeSwitch value={values.type} onChange={(type) => set('type', type)} />

        <EmailWithCode
          form="register"
          scene="register"
          lang={lang}
          email={values.email}
          onEmail={(email) => set('email', email)}
          error={errors.email}
          onServerError={setServerError}
        />
        <Field label={t`Verification code`} name="code" form="register" errors={errors}>
          <CodeInput {...a11y('code')} testId="register-code" value={values.code} onChange={(code) => set('code', code)} />
        </Field>
        <Field label={t`Password`} name="password" form="register" errors={errors} hint={t`At least 8 characters with digits, uppercase and lowercase letters.`}>
          <PasswordInput {...a11y('password')} testId="register-password" autoComplete="new-password" value={values.password} onChange={(value) => set('password', value)} />
        </Field>
        <Field label={t`Repeat password`} name="repassword" form="register" errors={errors}>
          <PasswordInput {...a11y('repassword')} testId="register-repassword" autoComplete="new-password" value={values.repassword} onChange={(value) => set('repassword', value)} />
        </Field>
        <Field label={<Trans>Invitation code <span className="field__optional">(optional)</span></Trans>} name="invite_code" form="register" errors={errors}>
          <input
            {...a11y('invite_code')}
            className="input input--code"
            autoCapitalize="characters"
            autoComplete="off"
            maxLength={6}
            value={values.invite_code}
            onChange={(e) => set('invite_code', e.target.value.toUpperCase())}
          />
        </Field>

        {values.type === 'corporate' && (
          <fieldset className="auth-company">
            <legend className="auth-company__legend">
              <Trans>Company details</Trans>
            </legend>
            <Field label={t`Company name`} name="company" form="register" errors={errors}>
              <input
                {...a11y('company')}
                className="input"
                autoComplete="organization"
                maxLength={TEXT_MAX_LENGTH}
                value={values.company}
                onChange={(e) => set('company', e.target.value)}
              />
            </Field>
            <Field label={t`UEN`} name="uen" form="register" errors={errors} hint={t`Your Unique Entity Number, e.g. 201912345K.`}>
              <input
                {...a11y('uen')}
                className="input input--code"
                autoCapitalize="characters"
                autoComplete="off"
                maxLength={10}
                value={values.uen}
                onChange={(e) => set('uen', e.target.value.toUpperCase())}
              />
            </Field>
          </fieldset>
        )}

        <TermsCheck form="register" checked={values.agree} onChange={(agree) => set('agree', agree)} errors={errors} />

        <button type="submit" className="btn btn--block" data-testid="register-submit" disabled={!online || busy || closed}>
          {!online ? <Trans>Needs a connection</Trans> : busy ? <Trans>Creating your account…</Trans> : <Trans>Create account</Trans>}
        </button>
        <FormAlert id="register-alert" message={serverError} />

        <p className="auth-switch">
          <Trans>Already have an account?</Trans>{' '}
          <Link to="/pages/login/index">
            <Trans>Log in</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}

/**
 * The email field with its "Send code" button. The address is checked with the shared sendCodeSchema before
 * anything is sent; after a send the button counts down 60 s.
 */
/** The 6-digit emailed code: a numeric keyboard, the phone's one-time-code autofill, digits only. */
export function CodeInput({
  testId,
  value,
  onChange,
  ...attrs
}: { testId: string; value: string; onChange: (code: string) => void } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  return (
    <input
      {...attrs}
      data-testid={testId}
      className="input"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="123456"
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
    />
  );
}

export function EmailWithCode({
  form,
  scene,
  lang,
  email,
  onEmail,
  error,
  onServerError,
}: {
  form: string;
  scene: 'register' | 'reset';
  lang: Lang;
  email: string;
  onEmail: (email: string) => void;
  error?: string;
  onServerError: (message: string) => void;
}) {
  const { t } = useLingui();
  const online = useOnline();
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState('');
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (until <= Date.now()) return;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [until]);

  const send = async () => {
    onServerError('');
    const checked = validate(sendCodeSchema, { email, scene }, lang);
    if (!checked.ok) {
      setSendError(checked.errors.email ?? checked.errors[''] ?? '');
      document.getElementById(`${form}-email`)?.focus();
      return;
    }
    setSendError('');
    setSending(true);
    try {
      const res = await post(PATHS.sendcode, { ...checked.output });
      if (res.code === 0) {
        const sentAt = Date.now();
        setNow(sentAt);
        setUntil(sentAt + RESEND_SECONDS * 1000);
        showToast(t`Code sent. Check your inbox.`, 'success');
        document.getElementById(`${form}-code`)?.focus();
      } else {
        onServerError(res.msg);
        if (res.code > 1000) showToast(res.msg, 'error');
      }
    } finally {
      setSending(false);
    }
  };

  const shown = error ?? sendError;
  const id = `${form}-email`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        <Trans>Email</Trans>
      </label>
      <div className="field__row">
        <input
          id={id}
          name="email"
          data-testid={`${form}-email`}
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={TEXT_MAX_LENGTH}
          value={email}
          onChange={(e) => {
            setSendError('');
            onEmail(e.target.value);
          }}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${id}-error` : undefined}
        />
        <button type="button" className="btn btn--ghost code-btn" data-testid={`${form}-send-code`} onClick={() => void send()} disabled={!online || sending || left > 0} aria-live="polite">
          {left > 0 ? t`Resend in ${left}s` : sending ? t`Sending…` : t`Send code`}
        </button>
      </div>
      {shown && (
        <p className="field__error" id={`${id}-error`}>
          {shown}
        </p>
      )}
    </div>
  );
}
