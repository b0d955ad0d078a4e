import { Hono } from 'hono';
import { pageOf } from '../../db/paging';
import { writeTx, type Tx } from '../../db/tx';
import type { AppEnv, Deps } from '../../env';
import { AppError, input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { publish } from '../../live/events';
import { requireUser, type User } from '../session';
import { pageSchema } from '../../../shared/schemas/common';
import { noticeReadSchema, type NoticePage, type NoticeReadResult } from '../../../shared/schemas/inbox';
import { notificationItem } from './settings';
import type { DB } from '../../db/connection';

// The notifications inbox (docs/decisions/0008-inbox.md): the caller's notices, newest first, with the
// unread count, and the mark-read write (one notice or all). A notice is only ever its owner's: another
// user's id answers notice_not_found and changes nothing. A write that marked something tells the user's
// other devices over the socket (invalidate `notifications`).

export const notificationRoutes = new Hono<AppEnv>();

async function unreadOf(db: DB | Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

notificationRoutes.get('/', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(pageSchema, await input(c));
  const { db } = c.get('deps');
  const base = db.selectFrom('notifications').where('user_id', '=', user.id);
  const [page, unread] = await Promise.all([pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), notificationItem), unreadOf(db, user.id)]);
  const answer: NoticePage = { ...page, unread };
  return ok(c, answer);
});

notificationRoutes.post('/read', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, noticeReadSchema);
  return idempotent(c, user.id, raw, () => markRead(c.get('deps'), user, data.id ?? null));
});

/** Marks one notice (`id`) or every notice (`id` null) of the user read; a notice already read stays as
 *  it was (its read_at is the first reading). */
export async function markRead(deps: Deps, user: User, id: number | null): Promise<NoticeReadResult> {
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx) => {
    let q = tx.updateTable('notifications').set({ read_at: now }).where('user_id', '=', user.id).where('read_at', 'is', null);
    if (id !== null) {
      const own = await tx.selectFrom('notifications').select('id').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
      if (!own) throw new AppError('notice_not_found');
      q = q.where('id', '=', id);
    }
    const result = await q.executeTakeFirst();
    const marked = Number(result.numUpdatedRows);
    if (marked > 0) await publish(tx, { type: 'invalidate', tables: ['notifications'] }, user.id, now);
    return { marked, unread: await unreadOf(tx, user.id) };
  });
}
