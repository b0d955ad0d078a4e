import type { CanopyDb } from '../../lib/db';
import { answer, newestRows, readDevice } from '../../lib/device-read';
import { readEarly, takeEarly } from '../../lib/early-read';
import { listsWholeCatalogue, type ProjectQuery } from '../../lib/sync';
import type { Paged } from '../../../shared/api';
import type { Banner, NewsItem, Project } from '../../../shared/schemas/content';

// What home draws, read three ways that agree: from the store (its live queries, once the store has
// loaded: lib/store.ts), from the device without the store (a start's early read, lib/device-read.ts), and
// from the network's answers before the store has them (what the store will hold once they are written,
// as lib/sync.ts writes them).

const HOME_STATUSES = ['in_progress', 'presale'];

/** Joinable projects first, then in-progress before pre-sale, newest selling time first; then by status and
 *  id, so every way of reading them gives one order. */
export function homeOrder(a: Project, b: Project): number {
  const rank = (p: Project) => (p.join_block === null ? 0 : 2) + (p.status === 'in_progress' ? 0 : 1);
  return rank(a) - rank(b) || b.selling_time_ms - a.selling_time_ms || (a.status < b.status ? -1 : a.status > b.status ? 1 : 0) || a.id - b.id;
}

/** Newest first, then the higher id (the store's index read backwards). */
const newsOrder = (a: NewsItem, b: NewsItem) => b.published_at_ms - a.published_at_ms || b.id - a.id;

const HOME_NEWS = 3;

/** Home's projects as the store keeps them (its live query). */
export const homeProjects = async (db: CanopyDb): Promise<Project[]> => (await db.projects.where('status').anyOf(HOME_STATUSES).toArray()).sort(homeOrder);
/** Home's banners and latest news as the store keeps them (their live queries). */
export const homeBanners = async (db: CanopyDb): Promise<Banner[] | undefined> => (await db.content.get('banners'))?.value as Banner[] | undefined;
export const homeNews = (db: CanopyDb): Promise<NewsItem[]> => db.news.orderBy('published_at_ms').reverse().limit(HOME_NEWS).toArray();

/** What home draws from the device, and whether its tables hold anything at all (a cached answer of the
 *  service worker fills only an empty table: lib/sync.ts restoreIfEmpty). */
export interface HomeDevice {
  projects: Project[];
  banners: Banner[] | undefined;
  news: NewsItem[];
  anyProjects: boolean;
  anyNews: boolean;
}

/** Home's data read from the device without the store (lib/device-read.ts); undefined when it keeps none. */
export const homeOnDevice = (): Promise<HomeDevice | undefined> =>
  readDevice(['projects', 'content', 'news'], async (tx) => {
    const projects = tx.objectStore('projects');
    const news = tx.objectStore('news');
    const [byStatus, banners, latest, projectCount, newsCount] = await Promise.all([
      Promise.all(HOME_STATUSES.map((s) => answer(projects.index('status').getAll(s) as IDBRequest<Project[]>))),
      answer(tx.objectStore('content').get('banners') as IDBRequest<{ value: Banner[] } | undefined>),
      newestRows<NewsItem>(news.index('published_at_ms'), HOME_NEWS),
      answer(projects.count()),
      answer(news.count()),
    ]);
    return { projects: byStatus.flat().sort(homeOrder), banners: banners?.value, news: latest, anyProjects: projectCount > 0, anyNews: newsCount > 0 };
  });

export const HOME_DEVICE_KEY = 'home';

/** A start on home reads it early (start.tsx): the first render is the whole screen as last seen (the boot
 *  shell's snapshot of it, lib/boot-snapshot.ts, is replaced by the same). */
export const readEarlyHome = (): Promise<void> => readEarly(HOME_DEVICE_KEY, homeOnDevice);
export const takeEarlyHome = (): HomeDevice | undefined => takeEarly<HomeDevice>(HOME_DEVICE_KEY);

/** Home's projects once the store holds the network's page (`query`): the device's, less those the page
 *  lists or drops, with the page's. */
export function projectsWithPage(device: Project[] | undefined, query: ProjectQuery, page: Paged<Project>): Project[] {
  const listed = new Set(page.list.map((p) => p.id));
  const kept = listsWholeCatalogue(query, page) ? [] : (device ?? []).filter((p) => !listed.has(p.id));
  return [...kept, ...page.list.filter((p) => HOME_STATUSES.includes(p.status))].sort(homeOrder);
}

/** Home's latest news once the store holds the network's page. */
export function newsWithPage(device: NewsItem[] | undefined, page: Paged<NewsItem>): NewsItem[] {
  const byId = new Map((device ?? []).map((n) => [n.id, n]));
  for (const n of page.list) byId.set(n.id, n);
  return [...byId.values()].sort(newsOrder).slice(0, HOME_NEWS);
}
