import { db } from '../../lib/db';
import { readEarly, takeEarly } from '../../lib/early-read';
import type { Banner, NewsItem, Project } from '../../../shared/schemas/content';

/** Joinable projects first, then in-progress before pre-sale, newest selling time first. */
export function homeOrder(a: Project, b: Project): number {
  const rank = (p: Project) => (p.join_block === null ? 0 : 2) + (p.status === 'in_progress' ? 0 : 1);
  return rank(a) - rank(b) || b.selling_time_ms - a.selling_time_ms;
}

const HOME_STATUSES = ['in_progress', 'presale'];

/** A project home lists: one selling now or in pre-sale. */
export const isHomeProject = (p: Project): boolean => HOME_STATUSES.includes(p.status);

/** Home's projects as this device keeps them (its live query, and a start's early read: lib/early-read.ts). */
export const homeProjects = async (): Promise<Project[]> => (await db.projects.where('status').anyOf(HOME_STATUSES).toArray()).sort(homeOrder);

export const HOME_PROJECTS_KEY = 'home:projects';

/** A start's early read of home's projects, once. */
export const takeEarlyHomeProjects = (): Project[] | undefined => takeEarly<Project[]>(HOME_PROJECTS_KEY);

/** Home's banners and latest news as this device keeps them (their live queries, and a start's early read). */
export const homeBanners = async (): Promise<Banner[] | undefined> => (await db.content.get('banners'))?.value as Banner[] | undefined;
export const homeNews = (): Promise<NewsItem[]> => db.news.orderBy('published_at_ms').reverse().limit(3).toArray();

export const HOME_BANNERS_KEY = 'home:banners';
export const HOME_NEWS_KEY = 'home:news';

/** Everything home draws from the device, read early by a start on home: its first render is the whole
 *  screen as last seen (the boot shell's snapshot of it, lib/boot-snapshot.ts, is replaced by the same). */
export const readEarlyHome = (): Promise<unknown> =>
  Promise.all([readEarly(HOME_PROJECTS_KEY, homeProjects), readEarly(HOME_BANNERS_KEY, homeBanners), readEarly(HOME_NEWS_KEY, homeNews)]);
