import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { showToast } from '../../components/toast';
import type { ApiResult } from '../../lib/api';
import { useOnline } from '../../lib/online';
import { useMemberId } from './api';
import { useIntentKey } from './intent-key';
import { passwordRuleLabel } from './labels';
import type { RuleState } from './password-rules';
import './wallet.css';

/** A form that starts again empty after each success (values, errors and intent key): its children are
 *  remounted by key. `onSuccess` runs too, e.g. to reload the records below the form. */
export function FreshAfterSuccess({ children, onSuccess }: { children: (done: () => void) => ReactNode; onSuccess?: () => void }) {
  const [round, setRound] = useState(0);
  const done = () => {
    setRound((r) => r + 1);
    onSuccess?.();
  };
  return <Fragment key={round}>{children(done)}</Fragment>;
}

// Pieces shared by the wallet and account-settings screens.

/** The page frame: nav bar, offline bar, and the content for members (a log-in prompt for everyone else). */
export function WalletPage({ title, children, className = '' }: { title: ReactNode; children: ReactNode; className?: string }) {
  const memId = useMemberId();
  return (
    <div className={`page wallet-page ${className}`}>
      <NavBar title={title} />
      <OfflineBar />
      {memId > 0 ? children : <MemberPrompt />}
    </div>
  );
}

function MemberPrompt() {
  const location = useLocation();
  return (
    <div className="section">
      <div className="card wallet-card wallet-prompt">
        <p>
          <Trans>Log in with your account to use your wallet. Visitors can browse but cannot move money.</Trans>
        </p>
        <Link to="/pages/login/index" search={{ redirect: location.href }} className="btn btn--block">
          <Trans>Log in</Trans>
        </Link>
      </div>
    </div>
  );
}

/**
 * One write of a form: the intent's Idempotency-Key, busy state, the server's refusal kept as returned (it is
 * already in the user's language) and toasted; transport failures were toasted by the request layer.
 */
export function useWrite<I, O>(send: (input: I, key: string) => Promise<ApiResult<O>>, keyPayload: (input: I) => unknown = (input) => input) {
  const { keyFor, settle } = useIntentKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const inFlight = useRef(false);
  const run = useCallback(
    async (input: I): Promise<ApiResult<O> | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      setBusy(true);
      setError('');
      try {
        const res = await send(input, keyFor(keyPayload(input)));
        settle(res.code);
        if (res.code !== 0) {
          setError(res.msg);
          if (res.code > 1000) showToast(res.msg, 'error');
        }
        return res;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [send, keyFor, keyPayload, settle],
  );
  return { run, busy, error, setError };
}

/** The submit button of a write: "Needs a connection" offline, a spinner while sending. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  testId,
  disabled = false,
  type = 'submit',
  onClick,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel: ReactNode;
  testId?: string;
  disabled?: boolean;
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  const online = useOnline();
  return (
    <button type={type} className="btn btn--block" data-testid={testId} disabled={!online || busy || disabled} aria-busy={busy || undefined} onClick={onClick}>
      {!online ? (
        <Trans>Needs a connection</Trans>
      ) : busy ? (
        <>
          <span className="wallet-spinner" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}

export function StatusChip({ status, children }: { status: string; children: ReactNode }) {
  return (
    <span className={`chip-status chip-status--${status}`} data-testid="status-chip" data-status={status}>
      {children}
    </span>
  );
}

/** An S$ amount input: text with a decimal keypad (parsed to cents by the caller, never as a float). */
export function AmountInput({
  value,
  onChange,
  testId,
  ...a11y
}: {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <div className="amount-input">
      <span className="amount-input__prefix" aria-hidden="true">
        S$
      </span>
      <input
        {...a11y}
        data-testid={testId}
        className="input amount-input__field"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        enterKeyHint="done"
        placeholder="0.00"
        maxLength={16}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** The password rules, ticked as the user types; screen readers hear each rule and whether it holds. */
export function PasswordChecklist({ id, rules, min }: { id: string; rules: RuleState[]; min: number }) {
  const { t, i18n } = useLingui();
  return (
    <ul className="pw-rules" id={id} aria-label={t`Password rules`}>
      {rules.map(({ rule, met }) => (
        <li key={rule} className={met ? 'pw-rules__item pw-rules__item--met' : 'pw-rules__item'} data-met={met}>
          <span className="pw-rules__mark" aria-hidden="true">
            {met ? '✓' : '○'}
          </span>
          <span>{rule === 'length' ? t`At least ${min} characters` : i18n._(passwordRuleLabel[rule])}</span>
          <span className="sr-only">{met ? t`(done)` : t`(not yet)`}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A bottom sheet on the native <dialog> (modal: focus stays inside, Escape closes, the page behind is inert).
 */
export function Sheet({
  open,
  onClose,
  labelledBy,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="sheet"
      aria-labelledby={labelledBy}
      data-testid={testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A tap on the backdrop (the dialog element itself, outside its content) closes the sheet.
        if (e.target === ref.current) onClose();
      }}
    >
      {open && <div className="sheet__body">{children}</div>}
    </dialog>
  );
}

/** A definition row of a summary ("Handling fee  S$2.00"). */
export function SummaryRow({ label, value, strong = false, testId }: { label: ReactNode; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className={strong ? 'summary__row summary__row--strong' : 'summary__row'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
