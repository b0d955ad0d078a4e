import type { Selectable } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx, WriteScope } from '../../db/tx';
import type { OrdersTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import { publishAll } from '../../live/events';
import type { InvalidationTable, ServerMessage } from '../../../shared/socket-events';
import type { Order } from '../../../shared/schemas/order';

// Order rows, their wire shape, and the invalidations every order change sends (its notices: live/notices.ts).

export type OrderRow = Selectable<OrdersTable>;
export interface ProjectBits {
  name: string;
  name_cn: string;
  image: string;
}

const iso = (ms: number | null) => (ms === null ? null : isoSgt(ms));

export function toOrder(o: OrderRow, p: ProjectBits): Order {
  return {
    id: o.id,
    order_no: o.order_no,
    project_id: o.project_id,
    project_name: p.name,
    project_name_cn: p.name_cn || p.name,
    project_image: p.image,
    side: o.side,
    kind: o.kind,
    status: o.status,
    unit_price: o.unit_price,
    tons: o.tons,
    total: o.total,
    booking_fee: o.booking_fee,
    final_unit_price: o.final_unit_price,
    final_tons: o.final_tons,
    final_amount: o.final_amount,
    final_deadline: iso(o.final_deadline),
    final_deadline_ms: o.final_deadline,
    cycle_end: iso(o.cycle_end),
    cycle_end_ms: o.cycle_end,
    presale_tons: o.presale_tons,
    settle_at: iso(o.settle_at),
    settle_at_ms: o.settle_at,
    settled_at: iso(o.settled_at),
    settled_at_ms: o.settled_at,
    completed_at: iso(o.completed_at),
    completed_at_ms: o.completed_at,
    created_at: isoSgt(o.created_at),
    created_at_ms: o.created_at,
    updated_at: isoSgt(o.updated_at),
    updated_at_ms: o.updated_at,
  };
}

/** One order with its project's name and image, as the API gives it. */
export async function loadOrder(db: DB | Tx, id: number): Promise<Order | undefined> {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('projects as p', 'p.id', 'o.project_id')
    .selectAll('o')
    .select(['p.name as p_name', 'p.name_cn as p_name_cn', 'p.image as p_image'])
    .where('o.id', '=', id)
    .executeTakeFirst();
  return row && toOrder(row, { name: row.p_name, name_cn: row.p_name_cn, image: row.p_image });
}

/** What an order change makes stale: the owner's orders, wallet and fund logs (one message: the client
 *  reads `ids` only for projects, and each message is two round trips on PostgreSQL, insert and
 *  NOTIFY, inside the write transaction every other order waits for); the project for everyone when its
 *  remaining supply moved. */
export async function invalidateOrder(w: WriteScope, userId: number, orderId: number, now: number, projectId?: number): Promise<void> {
  await publishAll(w, [...orderInvalidations(userId, orderId), ...(projectId !== undefined ? [projectInvalidation(projectId)] : [])], now);
}

/** invalidateOrder's message to the order's owner. */
export function orderInvalidations(userId: number, orderId: number): { message: ServerMessage; userId: number | null }[] {
  const tables: InvalidationTable[] = ['orders', 'user', 'fundlogs'];
  return [{ message: { type: 'invalidate', tables, ids: [orderId] }, userId }];
}

/** invalidateOrder's message to everyone when a project's remaining supply moved. */
export function projectInvalidation(projectId: number): { message: ServerMessage; userId: number | null } {
  return { message: { type: 'invalidate', tables: ['projects'], ids: [projectId] }, userId: null };
}

/** Takes tons out of a user's holding of one origin (a sale, a retirement) in one conditional update:
 *  false when the holding has fewer than that (the caller refuses with its own catalogue error). */
export async function takeHolding(tx: Tx, userId: number, projectId: number, origin: 'purchase' | 'presale', tons: number, now: number): Promise<boolean> {
  if (tons <= 0) return true;
  const res = await tx
    .updateTable('credit_holdings')
    .set((eb) => ({ tons: eb('tons', '-', tons), updated_at: now }))
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .where('origin', '=', origin)
    .where('tons', '>=', tons)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
