import { useCallback, useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from './db';
import { refreshProject } from './sync';
import { useOnline } from './online';
import type { Project } from '../../shared/schemas/content';

// One project as every screen about it reads it (detail, countdown, buy, book, sell): from the Dexie cache,
// refreshed from the API.

export type ProjectLoad =
  | { state: 'loading' }
  | { state: 'ready'; project: Project }
  | { state: 'missing' } // the server does not show it (or the id is not a project)
  | { state: 'unavailable' }; // offline and never cached

/** One project from Dexie, refreshed from the API on open, on reconnect and on demand. */
export function useProject(id: number): { load: ProjectLoad; refresh: () => Promise<void> } {
  const online = useOnline();
  // null = not in the cache; undefined = the cache has not answered yet.
  const cached = useLiveQuery(() => (id ? db.projects.get(id).then((p) => p ?? null) : null), [id]);
  const [fetched, setFetched] = useState<{ id: number; ok: boolean } | null>(null);
  const refresh = useCallback(async () => {
    if (!id) return;
    const p = await refreshProject(id);
    setFetched({ id, ok: p !== null });
  }, [id]);
  // On open and when the connection comes back; offline too, for the service worker's cached copy.
  useEffect(() => {
    void refresh();
  }, [refresh, online]);

  let load: ProjectLoad;
  if (cached) load = { state: 'ready', project: cached };
  else if (!id) load = { state: 'missing' };
  else if (cached === undefined) load = { state: 'loading' };
  else if (!online) load = { state: 'unavailable' };
  else if (fetched?.id === id && !fetched.ok) load = { state: 'missing' };
  else load = { state: 'loading' };
  return { load, refresh };
}
