import Dexie, { type EntityTable } from 'dexie';
import type { Banner, ContentPage, FaqItem, NewsItem, Project } from '../../shared/schemas/content';
import type { FootprintAnswers, FootprintResult } from '../../shared/schemas/footprint';
import type { NotificationItem } from '../../shared/schemas/wallet';
import type { Certificate } from '../../shared/schemas/retire';
import { clearDbProblem, reportDbProblem } from './db-health';
import { STORE_NAME } from './device-read';

// Live queries over this store from code that loads it lazily (lib/store.ts useStoreQuery).
export { liveQuery } from 'dexie';

// The offline cache (IndexedDB). What a user saw last is kept here and shown by useLiveQuery; the API
// refreshes it. Home's first screen draws without this module: lib/store.ts loads it once that screen has
// settled. Schema versions: add a new entry to SCHEMA for every change, never edit an old one (a device
// upgrades from whatever version it has, keeping its rows; tests/app/db.test.ts opens the previous
// version with rows and upgrades it).

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
  owner: number; // the member whose log it is (the cache may outlive a session)
  [key: string]: unknown;
}

export interface ContentEntry {
  key: string; // 'faq', 'banners', 'page:about', ...
  value: FaqItem[] | Banner[] | ContentPage;
  saved_at: number;
}

/** Per-user snapshots (user info, credits), keyed by name. Everything in meta belongs to the signed-in user. */
export interface MetaEntry {
  key: string;
  value: unknown;
}

/** A carbon footprint computed on this device (features/footprint): kept for its owner, saved to the
 *  account once signed in, with one Idempotency-Key per result so a retried save is recognised. */
export interface LocalFootprint {
  id?: number; // local, auto-incremented
  owner: number; // the member who computed it (0: a visitor)
  answers: FootprintAnswers;
  result: FootprintResult;
  created_at_ms: number;
  intent_key: string;
  server_id: number | null; // the account's copy, once saved
}

/** A public answer kept for offline reading (the transparency figures under 'transparency'). */
export interface PublicAnswerEntry {
  key: string;
  value: unknown;
  saved_at: number;
}

/** meta keys. The member's info is under lib/user-info.ts's USER_INFO_KEY, named there: code drawn before
 *  this module loads reads it (lib/store.ts). */
export const CREDITS_KEY = 'order_credits';
export const MEMBERSHIP_KEY = 'membership';
// The inbox's keys (NOTICES_UNREAD_KEY, NOTICES_SEEN_KEY) are in lib/notice-keys.ts: the tab bar's badge
// reads them on home before this module loads.
/** The signed-in member's passkeys (GET user/passkeys), for reading the list offline. */
export const PASSKEYS_KEY = 'passkeys';

/** Every schema version, oldest first: the stores (Dexie syntax) as of that version. */
export const SCHEMA: ReadonlyArray<Record<string, string>> = [
  // v1: projects, news, orders, fundlogs, content (FAQ, pages, banners), meta.
  {
    projects: 'id, status, type, selling_time_ms, updated_at',
    news: 'id, published_at_ms',
    orders: 'id, side, status, created_at_ms',
    fundlogs: 'id, kind, created_at_ms',
    content: 'key',
    meta: 'key',
  },
  // v2: fund logs by owner (and owner + kind), so a member's list is an index read, not a scan.
  {
    projects: 'id, status, type, selling_time_ms, updated_at',
    news: 'id, published_at_ms',
    orders: 'id, side, status, created_at_ms',
    fundlogs: 'id, kind, created_at_ms, owner, [owner+kind]',
    content: 'key',
    meta: 'key',
  },
  // v3: carbon footprints computed on the device, newest first per owner.
  {
    projects: 'id, status, type, selling_time_ms, updated_at',
    news: 'id, published_at_ms',
    orders: 'id, side, status, created_at_ms',
    fundlogs: 'id, kind, created_at_ms, owner, [owner+kind]',
    content: 'key',
    meta: 'key',
    footprints: '++id, owner, created_at_ms',
  },
  // v4: the notifications inbox, newest first; the unread count is meta NOTICES_UNREAD_KEY.
  {
    projects: 'id, status, type, selling_time_ms, updated_at',
    news: 'id, published_at_ms',
    orders: 'id, side, status, created_at_ms',
    fundlogs: 'id, kind, created_at_ms, owner, [owner+kind]',
    content: 'key',
    meta: 'key',
    footprints: '++id, owner, created_at_ms',
    notices: 'id, created_at_ms',
  },
  {
    projects: 'id, status, type, selling_time_ms, updated_at',
    news: 'id, published_at_ms',
    orders: 'id, side, status, created_at_ms',
    fundlogs: 'id, kind, created_at_ms, owner, [owner+kind]',
    content: 'key',
    meta: 'key',
    footprints: '++id, owner, created_at_ms',
    notices: 'id, created_at_ms',
    // Public retirement certificates seen on this device, and the transparency figures (key
    // 'transparency'), so both open offline once seen. Public: kept across sign-outs.
    certificates: 'id, retired_at_ms',
    public_answers: 'key',
  },
];

/** Tables anyone may read (the public catalogue); kept across sign-outs. */
export const PUBLIC_TABLES = ['projects', 'news', 'content', 'certificates', 'public_answers'] as const;
/** Tables of the signed-in user: wiped when the user signs out or another signs in. */
// Footprints are personal (diet, spending): a visitor's results go with the next sign-in, as the rest.
export const USER_TABLES = ['orders', 'fundlogs', 'meta', 'footprints', 'notices'] as const;

export class CanopyDb extends Dexie {
  projects!: EntityTable<Project, 'id'>;
  news!: EntityTable<NewsItem, 'id'>;
  orders!: EntityTable<CachedOrder, 'id'>;
  fundlogs!: EntityTable<CachedFundLog, 'id'>;
  content!: EntityTable<ContentEntry, 'key'>;
  meta!: EntityTable<MetaEntry, 'key'>;
  footprints!: EntityTable<LocalFootprint, 'id'>;
  notices!: EntityTable<NotificationItem, 'id'>;
  certificates!: EntityTable<Certificate, 'id'>;
  public_answers!: EntityTable<PublicAnswerEntry, 'key'>;

  constructor(name = STORE_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    SCHEMA.forEach((stores, i) => this.version(i + 1).stores(stores));
    // Another tab still has the old version open and does not let go: say so instead of waiting silently.
    // (A tab asked to let go closes by Dexie's default and reopens at the new version on its next read.)
    this.on('blocked', () => reportDbProblem('blocked'));
    this.on('ready', () => clearDbProblem('blocked'));
  }
}

export const db = new CanopyDb();

/** Drops whose data the cache holds: every user table, on sign-out or when another user signs in. */
export async function clearPrivateCache(database: CanopyDb = db, opts: { adoptGuestFootprintsAs?: number } = {}): Promise<void> {
  const tables = USER_TABLES.map((name) => database.table(name));
  const member = opts.adoptGuestFootprintsAs ?? 0;
  await database.transaction('rw', tables, async () => {
    // A guest who signs in keeps the footprints computed as a guest on this device: they become the
    // member's, not yet saved to the account (the footprint screens save them). Another member's never do.
    const adopted = member > 0 ? await database.footprints.where('owner').belowOrEqual(0).toArray() : [];
    for (const table of tables) await table.clear();
    for (const { id: _id, ...row } of adopted) await database.footprints.add({ ...row, owner: member, server_id: null });
  });
}
