import { pageOf } from '../../db/paging';
import { writeTx, type EffectRecord, type Tx } from '../../db/tx';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { publish } from '../../live/events';
import type { User } from '../session';
import type { PageQuery } from '../../db/paging';
import type { NoticePage, NoticeReadResult } from '../../../shared/schemas/inbox';
import { notificationItem } from './settings';
import type { DB } from '../../db/connection';

// The notifications inbox (docs/decisions/0008-inbox.md): the caller's notices, newest first, with the
// unread count, and the mark-read write (one notice or all). A notice is only ever its owner's: another
// user's id answers notice_not_found and changes nothing. A write that marked something tells the user's
// other devices over the socket (invalidate `notifications`).

async function unreadOf(db: DB | Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The caller's notices, newest first, paged, with the unread count. */
export async function noticesOf(deps: Deps, user: User, q: PageQuery): Promise<NoticePage> {
  const { db } = deps;
  const base = db.selectFrom('notifications').where('user_id', '=', user.id);
  const [page, unread] = await Promise.all([pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), notificationItem), unreadOf(db, user.id)]);
  return { ...page, unread };
}

/** Marks one notice (`id`) or every notice (`id` null) of the user read; a notice already read stays as
 *  it was (its read_at is the first reading). */
export async function markRead(deps: Deps, user: User, id: number | null, record?: EffectRecord): Promise<NoticeReadResult> {
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    let q = tx.updateTable('notifications').set({ read_at: now }).where('user_id', '=', user.id).where('read_at', 'is', null);
    if (id !== null) {
      const own = await tx.selectFrom('notifications').select('id').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
      if (!own) throw new AppError('notice_not_found');
      q = q.where('id', '=', id);
    }
    const result = await q.executeTakeFirst();
    const marked = Number(result.numUpdatedRows);
    if (marked > 0) await publish(w, { type: 'invalidate', tables: ['notifications'] }, user.id, now);
    return { marked, unread: await unreadOf(tx, user.id) };
  }, record);
}
