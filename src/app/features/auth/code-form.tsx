import { useEffect, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { keepNotice } from '../../components/page-notice';
import { post, type ApiResult } from '../../lib/api';
import { useOnline } from '../../lib/online';
import { validate, type fieldA11y, type FieldErrors } from '../../lib/form';
import { useIntentKey } from '../../lib/intent-key';
import { PATHS } from '../../../shared/api';
import { sendCodeSchema } from '../../../shared/schemas/auth';
import type { Lang } from '../../../shared/errors';
import { TEXT_MAX_LENGTH } from '../../../shared/constants';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { PasswordInput } from '../../components/forms/password-input';

// What the register and reset forms share: the emailed-code fields with a new password twice, their submit
// (one Idempotency-Key per intent, the server's refusal kept and shown once, inline) and their button.

const RESEND_SECONDS = 60;

/**
 * Sends the checked form to `path`. `done` takes the success (code 0); when it answers false the answer is
 * treated like a refusal, shown inline under the button; the request is quiet, so nothing is toasted as well.
 */
export function useCodeFormSubmit<I extends Record<string, unknown>, O>(path: string, check: () => I | null, done: (res: ApiResult<O>, input: I) => boolean | void) {
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState('');
  const { keyFor: intent } = useIntentKey();
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setServerError('');
    const input = check();
    if (!input || busy) return;
    setBusy(true);
    try {
      const res = await post<O>(path, { ...input }, { idempotencyKey: intent(input), quiet: true });
      if (res.code === 0 && done(res, input) !== false) return;
      setServerError(res.msg);
    } finally {
      setBusy(false);
    }
  };
  return { busy, serverError, setServerError, onSubmit };
}

type CodeField = 'email' | 'code' | 'password' | 'repassword';

/** Email with "Send code", the code, the new password and its repetition; ids and test ids start with `form`. */
export function CodeAndPasswords({
  form,
  scene,
  lang,
  values,
  set,
  errors,
  a11y,
  onServerError,
  passwordLabel,
  repeatLabel,
}: {
  form: string;
  scene: 'register' | 'reset';
  lang: Lang;
  values: Record<CodeField, string>;
  set: (name: CodeField, value: string) => void;
  errors: FieldErrors;
  a11y: (name: CodeField) => ReturnType<typeof fieldA11y>;
  onServerError: (message: string) => void;
  passwordLabel: string;
  repeatLabel: string;
}) {
  const { t } = useLingui();
  return (
    <>
      <EmailWithCode
        form={form}
        scene={scene}
        lang={lang}
        email={values.email}
        onEmail={(email) => set('email', email)}
        error={errors.email}
        onServerError={onServerError}
      />
      <Field label={t`Verification code`} name="code" form={form} errors={errors}>
        <CodeInput {...a11y('code')} testId={`${form}-code`} value={values.code} onChange={(code) => set('code', code)} />
      </Field>
      <Field label={passwordLabel} name="password" form={form} errors={errors} hint={t`At least 8 characters with digits, uppercase and lowercase letters.`}>
        <PasswordInput {...a11y('password')} testId={`${form}-password`} autoComplete="new-password" value={values.password} onChange={(value) => set('password', value)} />
      </Field>
      <Field label={repeatLabel} name="repassword" form={form} errors={errors}>
        <PasswordInput {...a11y('repassword')} testId={`${form}-repassword`} autoComplete="new-password" value={values.repassword} onChange={(value) => set('repassword', value)} />
      </Field>
    </>
  );
}

/** The form's submit button ("Needs a connection" offline, `busyLabel` while sending) and the server's refusal under it. */
export function CodeFormSubmit({ form, busy, disabled = false, busyLabel, serverError, children }: { form: string; busy: boolean; disabled?: boolean; busyLabel: ReactNode; serverError: string; children: ReactNode }) {
  const online = useOnline();
  return (
    <>
      <button type="submit" className="btn btn--block" data-testid={`${form}-submit`} disabled={!online || busy || disabled}>
        {!online ? <Trans>Needs a connection</Trans> : busy ? busyLabel : children}
      </button>
      <FormAlert id={`${form}-alert`} message={serverError} />
    </>
  );
}

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

/**
 * The email field with its "Send code" button. The address is checked with the shared sendCodeSchema before
 * anything is sent; after a send the button counts down 60 s.
 */
function EmailWithCode({
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
    onServerError('');
    setSending(true);
    try {
      const res = await post(PATHS.sendcode, { ...checked.output }, { quiet: true });
      if (res.code === 0) {
        const sentAt = Date.now();
        setNow(sentAt);
        setUntil(sentAt + RESEND_SECONDS * 1000);
        keepNotice(t`Code sent. Check your inbox.`, 'success');
        document.getElementById(`${form}-code`)?.focus();
      } else {
        // The refusal is about the address (or sending to it): shown once, under the email field.
        setSendError(res.msg);
        document.getElementById(`${form}-email`)?.focus();
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
