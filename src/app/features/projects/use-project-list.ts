import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { refreshProjects } from '../../lib/sync';
import { cachedProjects } from '../../lib/cached-projects';
import { PROJECT_LIST_KEY, takeEarly } from '../../lib/early-read';
import { useOnline } from '../../lib/online';
import { PAGE_SIZE } from '../../../shared/constants';
import type { Project } from '../../../shared/schemas/content';
import type { ProjectSearch } from './project-search';
import { refineProjects } from './project-refine';

interface Paging {
  key: string;
  /** How many cached rows are shown; grows a page at a time as the user scrolls. */
  limit: number;
  /** API pages fetched into Dexie for this filter, and the server's total (null until one answered). */
  pages: number;
  total: number | null;
  loading: boolean;
}

const MAX_REFINE_PAGES = 20;

const fresh = (key: string): Paging => ({ key, limit: PAGE_SIZE, pages: 0, total: null, loading: false });

/**
 * The project list for a filter. Rows come from Dexie (filtered and ordered like the server), so cached
 * projects stay browsable offline; API pages are fetched into Dexie as the user nears the end of the list.
 */
export function useProjectList(search: ProjectSearch) {
  const online = useOnline();
  const { status = '', type = '', q = '', icc = '' } = search;
  const key = `${status}|${type}|${q}|${icc}`;
  const [paging, setPaging] = useState<Paging>(() => fresh(key));
  const current = paging.key === key ? paging : fresh(key);
  if (paging.key !== key) setPaging(current);

  const { standard, sort } = search;
  // A start on this list read it ahead (lib/early-read.ts): its first render has the rows. Only for the filter
  // it was read for: another filter's rows wait for their own query.
  const listKey = PROJECT_LIST_KEY(status, type, q, standard ?? '', sort ?? '', icc);
  const [early] = useState(() => ({ key: listKey, rows: takeEarly<Project[]>(listKey) }));
  // Standard and sort are not server filters: refine the cached rows (pages keep loading as the user scrolls).
  const rows = useLiveQuery(
    async () => refineProjects(await cachedProjects({ status, type, q, icc }), { standard, sort }),
    [status, type, q, icc, standard, sort],
    early.key === listKey ? early.rows : undefined,
  );

  const inFlight = useRef(new Set<string>());
  const fetchPage = useCallback(
    async (page: number) => {
      const job = `${key}#${page}`;
      if (inFlight.current.has(job)) return;
      inFlight.current.add(job);
      setPaging((p) => (p.key === key ? { ...p, loading: true } : p));
      const res = await refreshProjects({ status, type, q, icc, page, page_size: PAGE_SIZE });
      inFlight.current.delete(job);
      setPaging((p) => {
        if (p.key !== key) return p; // the filter changed meanwhile; its own fetch owns the state
        if (!res) return { ...p, loading: false };
        return { ...p, loading: false, pages: Math.max(p.pages, page), total: res.total };
      });
    },
    [key, status, type, q, icc],
  );

  // First page on a new filter, and again when the connection comes back. Offline too: the service
  // worker answers a page it has seen from its cache, which Dexie may no longer hold.
  useEffect(() => {
    void fetchPage(1);
  }, [fetchPage, online]);

  // A client-side standard filter or sort is only right over the whole catalogue: fetch the remaining pages
  // (a bounded number) rather than sorting whatever the first page happened to hold.
  const refining = Boolean(standard || sort);
  useEffect(() => {
    if (!refining || !online || current.loading || current.total === null) return;
    if (current.pages * PAGE_SIZE < current.total && current.pages < MAX_REFINE_PAGES) void fetchPage(current.pages + 1);
  }, [refining, online, current.loading, current.total, current.pages, fetchPage]);

  const serverHasMore = current.total === null || current.pages * PAGE_SIZE < current.total;
  const shown = rows?.slice(0, current.limit);
  const hasMore = (rows !== undefined && rows.length > current.limit) || (online && current.total !== null && serverHasMore);

  const loadMore = useCallback(() => {
    setPaging((p) => (p.key === key ? { ...p, limit: p.limit + PAGE_SIZE } : p));
    if (online && current.total !== null && current.pages * PAGE_SIZE < current.total && !current.loading) void fetchPage(current.pages + 1);
  }, [key, online, current.total, current.pages, current.loading, fetchPage]);

  return {
    projects: shown as Project[] | undefined,
    hasMore,
    // Only "loading" while nothing can be shown yet, or while a next page is on its way.
    loading: current.loading && (rows === undefined || rows.length <= current.limit),
    loadMore,
    online,
    answered: current.total !== null,
  };
}
