import { get } from './api';
import { db as defaultDb, type CanopyDb } from './db';
import { PATHS, type Paged } from '../../shared/api';
import { ERRORS } from '../../shared/errors';
import type { Banner, ContentPage, FaqItem, NewsItem, Project } from '../../shared/schemas/content';

// Refreshes of the offline cache from the API. Screens read Dexie (useLiveQuery); these fill it.
// A failed refresh leaves what was cached, so the screen keeps showing the last copy offline.

export interface ProjectQuery {
  status?: string;
  type?: string;
  q?: string;
  page?: number;
  page_size?: number;
}

export async function refreshProjects(query: ProjectQuery, database: CanopyDb = defaultDb): Promise<Paged<Project> | null> {
  const res = await get<Paged<Project>>(PATHS.projectLists, { ...query }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  const list = res.data.list;
  await database.transaction('rw', database.projects, async () => {
    // Page 1 of an unfiltered list is the whole head of the catalogue: drop ids the server no longer lists.
    if ((query.page ?? 1) === 1 && !query.status && !query.type && !query.q && res.data.total <= list.length) {
      const keep = new Set(list.map((p) => p.id));
      const stale = (await database.projects.toCollection().primaryKeys()).filter((id) => !keep.has(id));
      await database.projects.bulkDelete(stale);
    }
    await database.projects.bulkPut(list);
  });
  return res.data;
}

// Server list order: in progress, then pre-sale, then closed; newest selling time first; then id.
const STATUS_RANK: Record<string, number> = { in_progress: 0, presale: 1 };
export function compareProjects(a: Project, b: Project): number {
  return (STATUS_RANK[a.status] ?? 2) - (STATUS_RANK[b.status] ?? 2) || b.selling_time_ms - a.selling_time_ms || b.id - a.id;
}

/** The cached projects matching a list query, filtered and ordered as the server does, so offline filtering works. */
export async function cachedProjects(query: Pick<ProjectQuery, 'status' | 'type' | 'q'>, database: CanopyDb = defaultDb): Promise<Project[]> {
  const rows = query.status ? await database.projects.where('status').equals(query.status).toArray() : await database.projects.toArray();
  const needle = query.q?.trim().toLowerCase() ?? '';
  return rows
    .filter(
      (p) =>
        p.status !== 'pending_review' &&
        (!query.type || p.type === query.type) &&
        (!needle || [p.name, p.name_cn, p.location].some((s) => s?.toLowerCase().includes(needle))),
    )
    .sort(compareProjects);
}

export async function refreshProject(id: number, database: CanopyDb = defaultDb): Promise<Project | null> {
  const res = await get<Project>(PATHS.projectDetail, { id }, { quiet: true });
  // The server no longer shows it (withdrawn for review, say): the cached copy must not linger.
  if (res.code === ERRORS.not_found.code) await database.projects.delete(id);
  if (res.code !== 0 || !res.data) return null;
  await database.projects.put(res.data);
  return res.data;
}

export async function refreshNews(page = 1, database: CanopyDb = defaultDb, page_size = 10): Promise<Paged<NewsItem> | null> {
  const res = await get<Paged<NewsItem>>(PATHS.newsLists, { page, page_size }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  await database.news.bulkPut(res.data.list);
  return res.data;
}

export async function refreshNewsItem(id: number, database: CanopyDb = defaultDb): Promise<NewsItem | null> {
  const res = await get<NewsItem>(PATHS.newsDetail, { id }, { quiet: true });
  if (res.code === ERRORS.not_found.code) await database.news.delete(id);
  if (res.code !== 0 || !res.data) return null;
  await database.news.put(res.data);
  return res.data;
}

/** Resolves true when the cache was refreshed, false when the server could not be reached (the cache stays). */
export async function refreshFaq(database: CanopyDb = defaultDb): Promise<boolean> {
  const res = await get<Paged<FaqItem>>(PATHS.faqLists, {}, { quiet: true });
  if (res.code !== 0 || !res.data) return false;
  await database.content.put({ key: 'faq', value: res.data.list, saved_at: Date.now() });
  return true;
}

export async function refreshBanners(database: CanopyDb = defaultDb): Promise<void> {
  const res = await get<Paged<Banner>>(PATHS.banners, {}, { quiet: true });
  if (res.code === 0 && res.data) await database.content.put({ key: 'banners', value: res.data.list, saved_at: Date.now() });
}

export async function refreshPage(slug: ContentPage['slug'], database: CanopyDb = defaultDb): Promise<boolean> {
  const res = await get<ContentPage>(PATHS.page, { slug }, { quiet: true });
  if (res.code !== 0 || !res.data) return false;
  await database.content.put({ key: `page:${slug}`, value: res.data, saved_at: Date.now() });
  return true;
}

/** What a socket invalidation asks for: refresh the named tables (and only the given ids where known). */
export async function applyInvalidation(tables: string[], ids: number[] | undefined, database: CanopyDb = defaultDb): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  if (tables.includes('projects')) {
    if (ids?.length) for (const id of ids) jobs.push(refreshProject(id, database));
    else jobs.push(refreshProjects({ page: 1, page_size: 20 }, database));
  }
  if (tables.includes('news')) jobs.push(refreshNews(1, database));
  await Promise.all(jobs);
  invalidationListeners.forEach((l) => l(tables));
}

type InvalidationListener = (tables: string[]) => void;
const invalidationListeners = new Set<InvalidationListener>();
/** Screens that hold server data outside Dexie (the wallet, say) listen here to refetch. */
export function onInvalidation(listener: InvalidationListener): () => void {
  invalidationListeners.add(listener);
  return () => invalidationListeners.delete(listener);
}
