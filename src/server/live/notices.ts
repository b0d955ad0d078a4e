import { sql } from 'kysely';
import type { WriteScope } from '../db/tx';
import { publish } from './events';

// The one writer of inbox notices (docs/product.md#notifications). A notice is three rows in the caller's
// write transaction: the notice itself, its socket message, and one push_queue row per device of the user
// that turned notifications on (docs/decisions/0033-web-push.md). So every notice is pushed, and only a
// committed one: the queue commits or rolls back with it, and the sender (live/push-sender.ts) works
// from the queue after the commit.

export interface NoticeText {
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  /** The app screen the notice opens (a path such as /pages/profile/order?tab=pending); absent: the inbox. */
  url?: string | null;
}

/** Writes a notice for the user, its socket message and its pushes; returns the notice's id. */
export async function notify(w: WriteScope, userId: number, text: NoticeText, now: number): Promise<number> {
  const { url = null, ...words } = text;
  const { id } = await w.tx
    .insertInto('notifications')
    .values({ user_id: userId, ...words, url, created_at: now, read_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await publish(w, { type: 'notification', id, title: words.title, body: words.body, title_cn: words.title_cn, body_cn: words.body_cn, created_at: now }, userId, now);
  await queuePushes(w, [id], now);
  return id;
}

/** The push_queue rows of committed-with-the-caller notices: one per notice and device of its owner. */
export async function queuePushes(w: WriteScope, noticeIds: readonly number[], now: number): Promise<void> {
  const CHUNK = 500;
  for (let i = 0; i < noticeIds.length; i += CHUNK) {
    const ids = noticeIds.slice(i, i + CHUNK);
    const tx = w.tx;
    await w.ahead(
      tx
        .insertInto('push_queue')
        .columns(['subscription_id', 'notification_id', 'next_at', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('notifications as n')
            .innerJoin('push_subscriptions as s', 's.user_id', 'n.user_id')
            .select(['s.id', 'n.id', sql<number>`cast(${now} as bigint)`.as('next_at'), sql<number>`cast(${now} as bigint)`.as('created_at')])
            .where('n.id', 'in', ids),
        ),
    );
  }
}
