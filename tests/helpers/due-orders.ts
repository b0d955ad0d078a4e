// A backlog of due work, as a server finds it after a long stop: `count` buy orders of one user in one
// project whose cycles ended before `now`, inserted directly (the order path would take minutes for 10,000),
// with the buyer's counted tons (order_usage) matching them as the order path keeps it.
import type { Insertable } from 'kysely';
import type { DB } from '../../src/server/db/connection';
import type { OrdersTable } from '../../src/server/db/schema';
import { sgtMonthStart } from '../../src/server/modules/order/calc';

const DAY = 86_400_000;
const PAGE = 500;

export async function seedDueOrders(db: DB, o: { userId: number; projectId: number; now: number; count: number; unitPrice?: number }): Promise<void> {
  const createdAt = o.now - 40 * DAY;
  const unit = o.unitPrice ?? 1000;
  await db.transaction().execute(async (tx) => {
    for (let start = 0; start < o.count; start += PAGE) {
      const rows: Insertable<OrdersTable>[] = [];
      for (let i = start; i < Math.min(o.count, start + PAGE); i++) {
        rows.push({
          order_no: `D${o.projectId}-${String(i).padStart(8, '0')}`, user_id: o.userId, project_id: o.projectId, side: 'buy', kind: 'purchase',
          status: 'in_progress', unit_price: unit, tons: 1, total: unit, final_unit_price: null, final_tons: null, final_amount: null,
          final_deadline: null, cycle_end: o.now - DAY + (i % 1000), settle_at: null, settled_at: null, completed_at: null, created_at: createdAt, updated_at: createdAt,
        });
      }
      await tx.insertInto('orders').values(rows).execute();
    }
    await tx
      .insertInto('order_usage')
      .values({ user_id: o.userId, project_id: o.projectId, month_start: sgtMonthStart(createdAt), tons: o.count })
      .onConflict((oc) => oc.columns(['user_id', 'project_id', 'month_start']).doUpdateSet((eb) => ({ tons: eb('order_usage.tons', '+', o.count) })))
      .execute();
  });
}

/** Buy orders whose cycle has ended but which the scheduler has not completed yet. */
export async function dueOrdersLeft(db: DB, now: number): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', 'in', ['in_progress', 'final_payment_made'])
    .where('side', '=', 'buy')
    .where('cycle_end', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
