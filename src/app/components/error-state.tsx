import { useEffect } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { dbProblemOf, reportDbProblem } from '../lib/db-health';
import { dbProblemText } from './storage-alert';

/** A screen that could not be drawn: what happened, in words, and a way to try again. */
export function ErrorState({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  return (
    <div className="empty" role="alert" data-testid="error-state">
      <p>{message ?? <Trans>Something went wrong on this screen.</Trans>}</p>
      <button type="button" className="btn btn--ghost" onClick={onRetry ?? (() => window.location.reload())}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}

/** The router's error screen (defaultErrorComponent): a storage problem is named, anything else is generic. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { i18n } = useLingui();
  const problem = dbProblemOf(error);
  useEffect(() => {
    if (problem) reportDbProblem(problem); // the banner stays when the user moves on
  }, [problem]);
  return <ErrorState message={problem ? i18n._(dbProblemText[problem]) : undefined} onRetry={problem ? undefined : reset} />;
}
