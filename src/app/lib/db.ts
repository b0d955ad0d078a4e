import Dexie, { type EntityTable } from 'dexie';
import type { Banner, ContentPage, FaqItem, NewsItem, Project } from '../../shared/schemas/content';

// The offline cache (IndexedDB). What a user saw last is kept here and shown by useLiveQuery; the API
// refreshes it. Schema versions: add a new db.version(n) block for every change, never edit an old one.
//   v1: projects, news, orders, fundlogs, content (FAQ, pages, banners), meta.

export interface CachedOrder {
  id: number;
  side: 'buy' | 'sell';
  status: string;
  created_at_ms: number;
  [key: string]: unknown;
}

export interface CachedFundLog {
  id: number;
  kind: string;
  created_at_ms: number;
  [key: string]: unknown;
}

export interface ContentEntry {
  key: string; // 'faq', 'banners', 'page:about', ...
  value: FaqItem[] | Banner[] | ContentPage;
  saved_at: number;
}

export interface MetaEntry {
  key: string;
  value: unknown;
}

export class CanopyDb extends Dexie {
  projects!: EntityTable<Project, 'id'>;
  news!: EntityTable<NewsItem, 'id'>;
  orders!: EntityTable<CachedOrder, 'id'>;
  fundlogs!: EntityTable<CachedFundLog, 'id'>;
  content!: EntityTable<ContentEntry, 'key'>;
  meta!: EntityTable<MetaEntry, 'key'>;

  constructor(name = 'canopy') {
    super(name);
    this.version(1).stores({
      projects: 'id, status, type, selling_time_ms, updated_at',
      news: 'id, published_at_ms',
      orders: 'id, side, status, created_at_ms',
      fundlogs: 'id, kind, created_at_ms',
      content: 'key',
      meta: 'key',
    });
  }
}

export const db = new CanopyDb();

/** Whose data the cache holds: orders and fund logs belong to one user and are dropped on a change. */
export async function clearPrivateCache(database: CanopyDb = db): Promise<void> {
  await database.transaction('rw', database.orders, database.fundlogs, database.meta, async () => {
    await database.orders.clear();
    await database.fundlogs.clear();
    await database.meta.delete('user_info');
  });
}
