import type { DB } from '../../db/connection';
import { writeTx } from '../../db/tx';
import { isoSgt } from '../../lib/clock';
import { notify } from '../../live/notices';

// Reminders of a pre-sale's final payment (docs/product.md#notifications): 24 hours and 2 hours before its
// deadline, each once per order. The scheduler finds the due ones from the database; each reminder is a
// notice_reminders row with its notice, written in one transaction whose insert does nothing when the row
// is already there, so two instances (or a restart) that find the same order remind once.

const HOUR = 3_600_000;

/** The screens order notices open (the order list, on the tab that holds the order). */
export const ORDER_URLS = {
  all: '/pages/profile/order',
  pending: '/pages/profile/order?tab=pending',
  completed: '/pages/profile/order?tab=completed',
  sell: '/pages/profile/order?tab=sell',
} as const;

export const REMINDERS = [
  { kind: 'final_24h', before: 24 * HOUR, title: 'Final payment due in 24 hours', title_cn: '尾款将于 24 小时后截止' },
  { kind: 'final_2h', before: 2 * HOUR, title: 'Final payment due in 2 hours', title_cn: '尾款将于 2 小时后截止' },
] as const;
export type Reminder = (typeof REMINDERS)[number];

/** Pending final payments whose reminder of this kind is due and not yet sent (at most `limit`): deadline
 *  within `before` of now and after the next shorter reminder's window, so a late allocation gets only
 *  the reminder that fits. */
export async function dueReminders(db: DB, r: Reminder, now: number, limit: number): Promise<{ id: number; final_deadline: number | null }[]> {
  const shorter = REMINDERS.find((x) => x.before < r.before)?.before ?? 0;
  return db
    .selectFrom('orders as o')
    .select(['o.id', 'o.final_deadline'])
    .where('o.status', '=', 'pending_final_payment')
    .where('o.final_deadline', '>', now + shorter)
    .where('o.final_deadline', '<=', now + r.before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('notice_reminders as n').select('n.order_id').whereRef('n.order_id', '=', 'o.id').where('n.kind', '=', r.kind))))
    .orderBy('o.final_deadline')
    .orderBy('o.id')
    .limit(limit)
    .execute();
}

/** Sends one order's reminder once: true when this call sent it. */
export async function remindFinalPayment(db: DB, orderId: number, r: Reminder, now: number): Promise<boolean> {
  return writeTx(db, async (tx, w) => {
    const order = await tx.selectFrom('orders').select(['user_id', 'order_no', 'status', 'final_deadline', 'final_amount']).where('id', '=', orderId).executeTakeFirst();
    if (!order || order.status !== 'pending_final_payment' || order.final_deadline === null || order.final_deadline <= now) return false;
    const claimed = await tx.insertInto('notice_reminders').values({ order_id: orderId, kind: r.kind, created_at: now }).onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing()).returning('order_id').executeTakeFirst();
    if (!claimed) return false;
    const deadline = isoSgt(order.final_deadline).slice(0, 16).replace('T', ' ');
    const amount = ((order.final_amount ?? 0) / 100).toFixed(2);
    await notify(
      w,
      order.user_id,
      {
        title: r.title,
        title_cn: r.title_cn,
        body: `Pre-sale ${order.order_no}: pay the final S$${amount} before ${deadline} (SGT), or the booking fee is forfeited.`,
        body_cn: `预售订单 ${order.order_no}：请在 ${deadline}（新加坡时间）前支付尾款 S$${amount}，否则预订费将被没收。`,
        url: ORDER_URLS.pending,
      },
      now,
    );
    return true;
  });
}
