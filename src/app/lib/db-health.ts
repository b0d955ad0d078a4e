import { useSyncExternalStore } from 'react';

// What keeps the offline cache from working, so the app can say so instead of showing a blank screen or a
// spinner that never ends. Reported by the database (a blocked upgrade), by failed cache writes (storage
// full) and by screens whose reads fail (IndexedDB unavailable, e.g. some private modes); shown by
// components/storage-alert.tsx (a banner) and components/error-state.tsx (a screen that could not render).

export type DbProblem = 'quota' | 'blocked' | 'unavailable';

const QUOTA = new Set(['QuotaExceededError']);
const UNAVAILABLE = new Set(['MissingAPIError', 'OpenFailedError', 'InvalidStateError', 'DatabaseClosedError', 'UnknownError', 'VersionError', 'UpgradeError']);

/** The problem an error means, looking through Dexie's wrappers (inner) to the browser's DOMException; null when it is not one. */
export function dbProblemOf(err: unknown): DbProblem | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { inner?: unknown }).inner, depth++) {
    const name = (e as { name?: unknown }).name;
    if (typeof name !== 'string') continue;
    if (QUOTA.has(name) || /quota/i.test(name)) return 'quota';
    if (UNAVAILABLE.has(name)) return 'unavailable';
  }
  return null;
}

let current: DbProblem | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function reportDbProblem(problem: DbProblem): void {
  if (current === problem) return;
  // A full disk or an unusable database says more than a blocked upgrade: keep the worse one.
  if (current === 'unavailable' && problem === 'blocked') return;
  current = problem;
  emit();
}

/** Reports the problem `err` means; true when it was one (so the caller need not rethrow it). */
export function reportDbError(err: unknown): boolean {
  const problem = dbProblemOf(err);
  if (problem) reportDbProblem(problem);
  return problem !== null;
}

/** Clears the problem (all, or only `which`): e.g. the blocked upgrade went through. */
export function clearDbProblem(which?: DbProblem): void {
  if (current === null || (which && current !== which)) return;
  current = null;
  emit();
}

export function getDbProblem(): DbProblem | null {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDbProblem(): DbProblem | null {
  return useSyncExternalStore(subscribe, getDbProblem, getDbProblem);
}
