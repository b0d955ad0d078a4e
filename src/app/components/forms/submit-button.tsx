import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { useOnline } from '../../lib/online';
import './forms.css';

/**
 * The primary button of a write: says "Needs a connection" offline, shows a spinner and `busyLabel` while the
 * write is on its way, and is disabled meanwhile. A submit button unless `onClick` is given.
 */
export function SubmitButton({
  children,
  busy = false,
  busyLabel,
  testId,
  disabled = false,
  onClick,
  form,
}: {
  children: ReactNode;
  busy?: boolean;
  busyLabel?: ReactNode;
  testId?: string;
  disabled?: boolean;
  onClick?: () => void;
  /** The id of the form it submits, when it sits outside it (a pinned footer). */
  form?: string;
}) {
  const online = useOnline();
  return (
    <button
      type={onClick ? 'button' : 'submit'}
      form={form}
      className="btn btn--block"
      data-testid={testId}
      disabled={!online || busy || disabled}
      aria-busy={busy || undefined}
      onClick={onClick}
    >
      {!online ? (
        <Trans>Needs a connection</Trans>
      ) : busy ? (
        <>
          <span className="spinner-inline" aria-hidden="true" />
          {busyLabel ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}
