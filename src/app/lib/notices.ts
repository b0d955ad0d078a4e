import { get } from './api';
import { db as defaultDb, NOTICES_UNREAD_KEY, type CanopyDb } from './db';
import { PATHS } from '../../shared/api';
import { PAGE_SIZE } from '../../shared/constants';
import type { NoticePage } from '../../shared/schemas/inbox';

// The member's notices (docs/decisions/0008-inbox.md) in Dexie (`notices`, and the unread count in meta
// under NOTICES_UNREAD_KEY), so the inbox and the tab bar's badge read offline. Refreshed on open, when the
// connection returns and when the socket says `notifications` changed (a new notice: app-runtime.ts; marked
// read on another device: the server's invalidate).

/** Socket invalidations that change the inbox. */
export const NOTICE_TABLES = ['notifications'] as const;

/** One page of GET user/notifications into Dexie, with the unread count. Null when it could not be read. */
export async function refreshNotices(page = 1, pageSize = PAGE_SIZE, database: CanopyDb = defaultDb): Promise<NoticePage | null> {
  const res = await get<NoticePage>(PATHS.notifications, { page, page_size: pageSize }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  const data = res.data;
  await database.transaction('rw', database.notices, database.meta, async () => {
    await database.notices.bulkPut(data.list);
    await database.meta.put({ key: NOTICES_UNREAD_KEY, value: data.unread });
  });
  return data;
}
