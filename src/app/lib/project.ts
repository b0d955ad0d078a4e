import { useCallback, useEffect, useRef, useState } from 'react';
import { refreshProject } from './sync';
import { loadStore, useStoreQuery } from './store';
import { useOnline } from './online';
import { PROJECT_KEY, takeEarly } from './early-read';
import type { Project } from '../../shared/schemas/content';

// One project as every screen about it reads it (detail, countdown, buy, book, sell): from the Dexie cache,
// refreshed from the API. Through lib/store.ts, never lib/db.ts: a start on a project's detail draws the
// project read ahead from the network (start.tsx) before the store's code has loaded, which loads once the
// screen is on screen.

export type ProjectLoad =
  | { state: 'loading' }
  | { state: 'ready'; project: Project }
  | { state: 'missing' } // the server does not show it (or the id is not a project)
  | { state: 'unavailable' }; // offline and never cached

/** Runs `job` once what is on screen now has been painted (the frame after it) and the page is idle, at
 *  most a second later; returns a cancel. */
function afterPaint(job: () => void): () => void {
  let cancelled = false;
  const run = () => void (cancelled || job());
  // The second frame's callback runs once the first frame (the one showing what is drawn now) is painted.
  requestAnimationFrame(() => requestAnimationFrame(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : setTimeout(run))));
  return () => {
    cancelled = true;
  };
}

/** One project from Dexie, refreshed from the API on open, on reconnect and on demand. */
export function useProject(id: number): { load: ProjectLoad; refresh: () => Promise<void> } {
  const online = useOnline();
  // A start on this screen read the project ahead (start.tsx): the first render draws it, and the read on
  // open is already done.
  const [early] = useState(() => ({ id, project: id ? takeEarly<Project | null>(PROJECT_KEY(id)) : undefined }));
  const earlyProject = early.id === id ? (early.project ?? undefined) : undefined;
  const readOnOpen = useRef(earlyProject === undefined);
  // null = not in the cache; undefined = the cache has not answered yet (the answer read ahead shows meanwhile).
  const cached = useStoreQuery((db) => (id ? db.projects.get(id).then((p) => p ?? null) : Promise.resolve(null)), [id], undefined);
  // The store loads at once when nothing was read ahead; else once the screen is painted and the page idle,
  // so its code does not compete with the screen's image (its largest paint).
  useEffect(() => {
    if (!early.project) return void loadStore().catch(() => undefined);
    return afterPaint(() => void loadStore().catch(() => undefined));
  }, [early]);
  // The last answer this screen had (read ahead, or its own read): shown while the store does not hold the
  // project, e.g. its write still waiting for the store, or lost with a page left at once (offline, the
  // service worker's copy is then all there is). Once the store has held it, the store's word is final: a
  // project the server withdrew is deleted there.
  const [fetched, setFetched] = useState<{ id: number; ok: boolean; project: Project | null } | null>(() => (earlyProject ? { id, ok: true, project: earlyProject } : null));
  const [heldId, setHeldId] = useState(0);
  useEffect(() => {
    if (cached) setHeldId(id);
  }, [cached, id]);
  const refresh = useCallback(async () => {
    if (!id) return;
    const p = await refreshProject(id);
    setFetched({ id, ok: p !== null, project: p });
  }, [id]);
  // On open and when the connection comes back; offline too, for the service worker's cached copy.
  useEffect(() => {
    if (!readOnOpen.current) {
      readOnOpen.current = true;
      return;
    }
    void refresh();
  }, [refresh, online]);

  const answered = fetched?.id === id && heldId !== id ? fetched.project : null;
  let load: ProjectLoad;
  if (cached) load = { state: 'ready', project: cached };
  else if (!id) load = { state: 'missing' };
  else if (answered) load = { state: 'ready', project: answered };
  else if (cached === undefined) load = { state: 'loading' };
  else if (!online) load = { state: 'unavailable' };
  else if (fetched?.id === id && !fetched.ok) load = { state: 'missing' };
  else load = { state: 'loading' };
  return { load, refresh };
}
