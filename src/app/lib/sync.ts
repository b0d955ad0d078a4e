import { get, type ApiResult } from './api';
import type { CanopyDb, ContentEntry } from './db';
import type { EntityTable } from 'dexie';
import { reportDbError } from './db-health';
import { writeStore } from './store';
import { PATHS, type Paged } from '../../shared/api';
import { TRANSPORT_ERRORS as ERRORS } from '../../shared/errors-transport';
import type { Banner, ContentPage, FaqItem, NewsItem, Project } from '../../shared/schemas/content';

// Refreshes of the offline cache from the API. Screens read Dexie (useLiveQuery); these fill it.
// A failed refresh leaves what was cached, so the screen keeps showing the last copy offline.
// Each writes to the database it is given, else to the app's store once that may load (lib/store.ts: not
// before home's first screen has settled), and resolves once written.

export interface ReadOptions<T = unknown> {
  /** Skip the service worker's cached copy (a socket's invalidation says the server's data changed). */
  fresh?: boolean;
  /** Each answer as it comes (the service worker's cached copy, then the network's), before it is written:
   *  home's first screen, drawn before the store loads, shows it from here (features/home/use-home.ts). */
  onAnswer?: (data: T, fromCache: boolean) => void;
}

/** `job` on `database`, or on the app's store once it may load. */
const onStore = <R>(database: CanopyDb | undefined, job: (d: CanopyDb) => Promise<R>): Promise<R> => (database ? job(database) : writeStore(job));

/**
 * One API read, applied to Dexie by `apply`. When the service worker answered it from its cache (which
 * `apply` writes only into an emptied table, see restoreIfEmpty), the network's answer, already under way
 * (lib/api.ts), is applied when it comes. Resolves with what the first answer gave, without waiting for the
 * network: on a flaky connection the caller has its answer from the cache at once.
 */
function read<T, R>(path: string, data: Record<string, unknown>, opts: ReadOptions<T>, apply: (res: ApiResult<T>) => Promise<R>): Promise<R> {
  const answered = (res: ApiResult<T>) => {
    if (res.code === 0 && res.data) opts.onAnswer?.(res.data, res.fromCache === true);
  };
  return get<T>(path, data, { quiet: true, fresh: opts.fresh }).then((res) => {
    answered(res);
    const first = apply(res);
    void res.revalidated?.then(async (next) => {
      await first.catch(() => undefined);
      if (next.fromCache) return;
      answered(next);
      await apply(next);
    });
    return first;
  });
}

// An answer from the service worker's cache is never newer than Dexie: every answer the app gets is
// written here (deletions too), the worker keeps only some. So it is not written over Dexie: that would
// cost the first screen a write and its live queries a second run for nothing, and could bring back rows
// Dexie has since dropped. It only restores a table (or content entry) found empty, e.g. after the
// browser evicted the database, and only once the first screen has settled and its reads are done; by
// then, online, the network's answer (res.revalidated) has filled the table and the restore does nothing.
function restoreIfEmpty<T extends { id: number }>(database: CanopyDb | undefined, table: (d: CanopyDb) => EntityTable<T, 'id'>, rows: T[]): void {
  whenSettled(() =>
    onStore(database, async (d) => {
      if ((await table(d).count()) === 0) await table(d).bulkPut(rows);
    }),
  );
}

function restoreIfMissing(database: CanopyDb | undefined, entry: ContentEntry): void {
  whenSettled(() =>
    onStore(database, async (d) => {
      if (!(await d.content.get(entry.key))) await d.content.put(entry);
    }),
  );
}

function whenSettled(job: () => Promise<void>): void {
  const run = () => void job().catch(cacheFailure);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 500);
}

export interface ProjectQuery {
  status?: string;
  type?: string;
  q?: string;
  icc?: string;
  page?: number;
  page_size?: number;
}

/** Whether an answer to `query` lists the whole catalogue: page 1 of an unfiltered list holding every
 *  project, so the cache drops the ids it does not list. */
export const listsWholeCatalogue = (query: ProjectQuery, page: Paged<Project>): boolean =>
  (query.page ?? 1) === 1 && !query.status && !query.type && !query.q && !query.icc && page.total <= page.list.length;

export function refreshProjects(query: ProjectQuery, database?: CanopyDb, opts: ReadOptions<Paged<Project>> = {}): Promise<Paged<Project> | null> {
  return read<Paged<Project>, Paged<Project> | null>(PATHS.projectLists, { ...query }, opts, async (res) => {
    if (res.code !== 0 || !res.data) return null;
    const list = res.data.list;
    if (res.fromCache) {
      restoreIfEmpty(database, (d) => d.projects, list);
      return res.data;
    }
    await onStore(database, (d) =>
      d.transaction('rw', d.projects, async () => {
        if (listsWholeCatalogue(query, res.data)) {
          const keep = new Set(list.map((p) => p.id));
          const stale = (await d.projects.toCollection().primaryKeys()).filter((id) => !keep.has(id));
          await d.projects.bulkDelete(stale);
        }
        await d.projects.bulkPut(list);
      }),
    );
    return res.data;
  });
}

export function refreshProject(id: number, database?: CanopyDb, opts: ReadOptions<Project> = {}): Promise<Project | null> {
  return read<Project, Project | null>(PATHS.projectDetail, { id }, opts, async (res) => {
    // The server no longer shows it (withdrawn for review, say): the cached copy must not linger.
    if (res.code === ERRORS.not_found.code && !res.fromCache) await onStore(database, (d) => d.projects.delete(id));
    if (res.code !== 0 || !res.data) return null;
    if (res.fromCache) restoreIfEmpty(database, (d) => d.projects, [res.data]);
    else await onStore(database, (d) => d.projects.put(res.data));
    return res.data;
  });
}

export function refreshNews(page = 1, database?: CanopyDb, page_size = 10, opts: ReadOptions<Paged<NewsItem>> = {}): Promise<Paged<NewsItem> | null> {
  return read<Paged<NewsItem>, Paged<NewsItem> | null>(PATHS.newsLists, { page, page_size }, opts, async (res) => {
    if (res.code !== 0 || !res.data) return null;
    if (res.fromCache) restoreIfEmpty(database, (d) => d.news, res.data.list);
    else await onStore(database, (d) => d.news.bulkPut(res.data.list));
    return res.data;
  });
}

export function refreshNewsItem(id: number, database?: CanopyDb): Promise<NewsItem | null> {
  return read<NewsItem, NewsItem | null>(PATHS.newsDetail, { id }, {}, async (res) => {
    if (res.code === ERRORS.not_found.code && !res.fromCache) await onStore(database, (d) => d.news.delete(id));
    if (res.code !== 0 || !res.data) return null;
    if (res.fromCache) restoreIfEmpty(database, (d) => d.news, [res.data]);
    else await onStore(database, (d) => d.news.put(res.data));
    return res.data;
  });
}

/** Resolves true when the cache was refreshed, false when the server could not be reached (the cache stays). */
export function refreshFaq(database?: CanopyDb): Promise<boolean> {
  return read<Paged<FaqItem>, boolean>(PATHS.faqLists, {}, {}, async (res) => {
    if (res.code !== 0 || !res.data) return false;
    const entry: ContentEntry = { key: 'faq', value: res.data.list, saved_at: Date.now() };
    if (res.fromCache) restoreIfMissing(database, entry);
    else await onStore(database, (d) => d.content.put(entry));
    return true;
  });
}

export function refreshBanners(database?: CanopyDb, opts: ReadOptions<Paged<Banner>> = {}): Promise<void> {
  return read<Paged<Banner>, void>(PATHS.banners, {}, opts, async (res) => {
    if (res.code !== 0 || !res.data) return;
    const entry: ContentEntry = { key: 'banners', value: res.data.list, saved_at: Date.now() };
    if (res.fromCache) restoreIfMissing(database, entry);
    else await onStore(database, (d) => d.content.put(entry));
  });
}

export function refreshPage(slug: ContentPage['slug'], database?: CanopyDb): Promise<boolean> {
  return read<ContentPage, boolean>(PATHS.page, { slug }, {}, async (res) => {
    if (res.code !== 0 || !res.data) return false;
    const entry: ContentEntry = { key: `page:${slug}`, value: res.data, saved_at: Date.now() };
    if (res.fromCache) restoreIfMissing(database, entry);
    else await onStore(database, (d) => d.content.put(entry));
    return true;
  });
}

/** What a socket invalidation asks for: refresh the named tables (and only the given ids where known). */
export async function applyInvalidation(tables: string[], ids: number[] | undefined, database?: CanopyDb): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  // The server says these changed: the service worker's cached copies are known stale, ask the network.
  const fresh: ReadOptions = { fresh: true };
  if (tables.includes('projects')) {
    if (ids?.length) for (const id of ids) jobs.push(refreshProject(id, database, fresh));
    else jobs.push(refreshProjects({ page: 1, page_size: 20 }, database, fresh));
  }
  if (tables.includes('news')) jobs.push(refreshNews(1, database, undefined, fresh));
  // A cache write that fails (storage full) is reported for the banner; the screens still hear the news.
  await Promise.all(jobs.map((job) => job.catch(cacheFailure)));
  invalidationListeners.forEach((l) => l(tables));
}

/** A refresh that could not write the cache: reported when it is a storage problem, rethrown otherwise. */
function cacheFailure(err: unknown): void {
  if (!reportDbError(err)) throw err;
}

type InvalidationListener = (tables: string[]) => void;
const invalidationListeners = new Set<InvalidationListener>();
/** Screens that hold server data outside Dexie (the wallet, say) listen here to refetch. */
export function onInvalidation(listener: InvalidationListener): () => void {
  invalidationListeners.add(listener);
  return () => invalidationListeners.delete(listener);
}
