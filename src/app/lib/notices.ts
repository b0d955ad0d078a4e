import { get } from './api';
import type { CanopyDb } from './db';
import { NOTICES_UNREAD_KEY } from './notice-keys';
import { writeStore } from './store';
import { PATHS } from '../../shared/api';
import { PAGE_SIZE } from '../../shared/constants';
import type { NoticePage } from '../../shared/schemas/inbox';

// The member's notices (docs/decisions/0008-inbox.md) in Dexie (`notices`, and the unread count in meta
// under NOTICES_UNREAD_KEY), so the inbox and the tab bar's badge read offline. Refreshed on open, when the
// connection returns and when the socket says `notifications` changed (a new notice: app-runtime.ts; marked
// read on another device: the server's invalidate). Written to `database`, else to the app's store once it
// may load (lib/store.ts: the badge refreshes on home, before the store loads).

/** Socket invalidations that change the inbox. */
export const NOTICE_TABLES = ['notifications'] as const;

/** One page of GET user/notifications into Dexie, with the unread count. Null when it could not be read.
 *  `onAnswer` has the page as soon as it comes, before it is written. */
export async function refreshNotices(page = 1, pageSize = PAGE_SIZE, database?: CanopyDb, onAnswer?: (page: NoticePage) => void): Promise<NoticePage | null> {
  const res = await get<NoticePage>(PATHS.notifications, { page, page_size: pageSize }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  const data = res.data;
  onAnswer?.(data);
  const write = (d: CanopyDb) =>
    d.transaction('rw', d.notices, d.meta, async () => {
      await d.notices.bulkPut(data.list);
      await d.meta.put({ key: NOTICES_UNREAD_KEY, value: data.unread });
    });
  await (database ? write(database) : writeStore(write));
  return data;
}
