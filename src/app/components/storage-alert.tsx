import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useDbProblem, type DbProblem } from '../lib/db-health';
import './storage-alert.css';

// What the offline cache's problems mean to a person (lib/db-health.ts), in both languages.
export const dbProblemText: Record<DbProblem, MessageDescriptor> = {
  quota: msg`This device's storage is full, so Canopy cannot save what you see for offline use. Free some space; everything still works online.`,
  blocked: msg`Canopy is open in another tab with an older version. Close the other Canopy tabs to finish updating.`,
  unavailable: msg`Canopy cannot use this device's storage (private browsing may block it), so nothing is kept for offline use. Everything still works online.`,
};

/** A banner over every screen while the offline cache cannot be used; gone when the problem is. */
export function StorageAlert() {
  const { i18n } = useLingui();
  const problem = useDbProblem();
  if (!problem) return null;
  return (
    <p className="storage-alert notice notice--warn" role="alert" data-testid="storage-alert" data-problem={problem}>
      {i18n._(dbProblemText[problem])}
    </p>
  );
}
