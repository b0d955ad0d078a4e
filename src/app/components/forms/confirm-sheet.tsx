import { useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Sheet } from '../sheet';
import { FormAlert } from './form-alert';
import { PasswordInput } from './password-input';
import { SubmitButton } from './submit-button';
import './forms.css';

/**
 * The confirm step of a money write (an order, a payment, a withdrawal): what is about to happen (children),
 * the password that authorises it, and the confirm button. The caller runs the write (useWrite) and passes its
 * busy state and refusal; the sheet stays open on a refusal, and forgets the typed password after a business
 * refusal (code > 1000: e.g. a wrong password, counted) but keeps it for a retry after a transport failure.
 */
export function ConfirmSheet({
  open,
  onClose,
  title,
  children,
  password: field,
  busy,
  error,
  confirmLabel,
  busyLabel,
  onConfirm,
  testId,
  submitTestId,
  closeTestId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** The password field: ids, label, hint, and the text shown when it is left empty. */
  password: { id: string; testId: string; label: ReactNode; hint?: ReactNode; missing: string };
  busy: boolean;
  error: string;
  confirmLabel: ReactNode;
  busyLabel: ReactNode;
  /** Runs the write; resolves with the answer's code (0 done), or null when nothing was sent. */
  onConfirm: (password: string) => Promise<number | null>;
  testId: string;
  submitTestId: string;
  closeTestId?: string;
}) {
  const { t } = useLingui();
  const titleId = `${field.id}-title`;
  return (
    <Sheet open={open} onClose={onClose} labelledBy={titleId} testId={testId}>
      <ConfirmForm {...{ field, busy, error, confirmLabel, busyLabel, onConfirm, submitTestId }}>
        <div className="sheet__head">
          <h2 id={titleId} className="sheet__title">
            {title}
          </h2>
          <button type="button" className="sheet__close" onClick={onClose} aria-label={t`Close`} data-testid={closeTestId}>
            ×
          </button>
        </div>
        {children}
      </ConfirmForm>
    </Sheet>
  );
}

/** The form inside the sheet: mounted when the sheet opens, so the password starts empty each time. */
function ConfirmForm({
  field,
  busy,
  error,
  confirmLabel,
  busyLabel,
  onConfirm,
  submitTestId,
  children,
}: {
  field: { id: string; testId: string; label: ReactNode; hint?: ReactNode; missing: string };
  busy: boolean;
  error: string;
  confirmLabel: ReactNode;
  busyLabel: ReactNode;
  onConfirm: (password: string) => Promise<number | null>;
  submitTestId: string;
  children: ReactNode;
}) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const alertId = `${field.id}-alert`;
  const errorId = `${field.id}-error`;
  const hintId = `${field.id}-hint`;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!password) {
      setMissing(true);
      document.getElementById(field.id)?.focus();
      return;
    }
    const code = await onConfirm(password);
    if (code !== null && code > 1000) setPassword('');
  };

  return (
    <form className="sheet__form" onSubmit={(e) => void submit(e)} noValidate>
      {children}
      <div className="field">
        <label className="field__label" htmlFor={field.id}>
          {field.label}
        </label>
        <PasswordInput
          id={field.id}
          name="password"
          testId={field.testId}
          data-autofocus
          autoComplete="off"
          value={password}
          onChange={(value) => {
            setPassword(value);
            setMissing(false);
          }}
          aria-invalid={missing || error ? true : undefined}
          aria-describedby={missing ? errorId : error ? alertId : field.hint ? hintId : undefined}
        />
        {missing && (
          <p className="field__error" id={errorId}>
            {field.missing}
          </p>
        )}
        {field.hint && !missing && (
          <p className="field__hint" id={hintId}>
            {field.hint}
          </p>
        )}
      </div>
      <FormAlert id={alertId} message={error} />
      <SubmitButton busy={busy} busyLabel={busyLabel} testId={submitTestId}>
        {confirmLabel}
      </SubmitButton>
    </form>
  );
}
