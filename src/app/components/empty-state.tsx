import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

/** Nothing to show (yet): a short sentence and, when there is one, the next step (a link or button). */
export function EmptyState({ children, action, testId }: { children: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={testId}>
      <p>{children}</p>
      {action}
    </div>
  );
}

/** A members' screen seen logged out: what logging in shows, and a log-in button that comes back to `redirect`. */
export function LogInState({ children, redirect }: { children: ReactNode; redirect: string }) {
  return (
    <EmptyState
      action={
        <Link to="/pages/login/index" search={{ redirect }} className="btn btn--ghost">
          <Trans>Log in</Trans>
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}

/** Waiting for data: a spinner, announced once to screen readers. */
export function LoadingState() {
  return (
    <div className="pending" role="status">
      <div className="spinner" aria-hidden="true" />
      <span className="sr-only">
        <Trans>Loading…</Trans>
      </span>
    </div>
  );
}
