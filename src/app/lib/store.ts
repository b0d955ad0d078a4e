import { useEffect, useState } from 'react';
import type * as StoreModule from './db';
import { isHome } from './first-run';

// The offline store's code (lib/db.ts: Dexie, about 29 KiB gzip) is not part of home's first screen: a
// start on home draws its last-seen screen from a plain IndexedDB read (lib/device-read.ts) and the
// network's answers, and the store loads once that screen has settled or as soon as anything needs it
// (another screen, a sign-out's wipe). Code drawn on home reaches the store through here, never by
// importing lib/db.ts (tests/app/home-chunks.test.ts holds it). So does a project's detail, which a shared
// link opens: its first screen draws the project read from the network. Elsewhere the store loads at once.

/** The screens whose first screen draws without the store: home (from the device and the network) and a
 *  project's detail (the project read ahead from the network, start.tsx; lib/project.ts loads the store once
 *  it has drawn). A start on any other screen loads the store at once. */
export const drawsBeforeStore = (path: string): boolean => isHome(path) || path === '/pages/project/project';

let loading: Promise<typeof StoreModule> | null = null;
let deferral: { until: Promise<void>; release: () => void } | null = null;
/** Writes handed to the store and not yet done: its live queries start after them (useStoreQuery). */
const pending = new Set<Promise<unknown>>();

/** The store, its code loaded now if it is not yet (and any deferral ended). */
export function loadStore(): Promise<typeof StoreModule> {
  deferral?.release();
  deferral = null;
  loading ??= import('./db').catch((err: unknown) => {
    loading = null; // offline before the chunk was cached: the next call tries again
    throw err;
  });
  return loading;
}

/** Whether the store's code has been asked for (by loadStore). */
export const storeLoading = (): boolean => loading !== null;

/** A start on home: the store waits (its writes and live queries with it) until loadStore is called, by
 *  the first screen once it has settled (routes/__root.tsx) or by whatever needs it first. */
export function deferStore(): void {
  if (loading || deferral) return;
  let release: () => void = () => undefined;
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  deferral = { until, release };
}

/** The store, once it may load: at once, or when a deferral ends. */
function storeWhenAllowed(): Promise<typeof StoreModule> {
  return deferral ? deferral.until.then(loadStore) : loadStore();
}

/** Runs `write` on the store once it may load; readers of the store (useStoreQuery) start after it. */
export function writeStore<R>(write: (db: StoreModule.CanopyDb) => Promise<R>): Promise<R> {
  const job = storeWhenAllowed().then((m) => write(m.db));
  const done = job.then(
    () => undefined,
    () => undefined,
  );
  pending.add(done);
  void done.then(() => pending.delete(done));
  return job;
}

/** The store for a live query: once it may load and the writes handed to it before are done, so its first
 *  answer already holds what the screen has been showing from the network. */
async function storeForReads(): Promise<typeof StoreModule> {
  const m = await storeWhenAllowed();
  await Promise.all([...pending]);
  return m;
}

/**
 * A live query over the store (Dexie's liveQuery, as dexie-react-hooks' useLiveQuery) that starts once the
 * store may load; until its first answer, `fallback` (what the screen read early, or the network's answer).
 * A failing query throws in render, for the route's error screen, as useLiveQuery does.
 */
export function useStoreQuery<T, F = T>(query: (db: StoreModule.CanopyDb) => Promise<T>, deps: unknown[], fallback: F): T | F {
  const [answer, setAnswer] = useState<{ value: T } | null>(null);
  const [error, setError] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    let stopped = false;
    let subscription: { unsubscribe(): void } | null = null;
    storeForReads().then(
      (m) => {
        if (stopped) return;
        subscription = m.liveQuery(() => query(m.db)).subscribe({
          next: (value) => setAnswer({ value }),
          error: (err: unknown) => setError({ error: err }),
        });
      },
      () => undefined, // the store's code could not load: the screen keeps what it has
    );
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query's inputs are `deps`, as for useLiveQuery
  }, deps);
  if (error) throw error.error;
  return answer ? answer.value : fallback;
}
