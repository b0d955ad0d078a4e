import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { Tx } from '../../db/tx';
import { AppError } from '../../lib/http';
import { walletOf } from '../../ledger/ledger';
import { findVisibleProject, type ProjectRow } from '../project/service';
import type { User } from '../session';
import type { BookingFacts, FinalPaymentFacts, PurchaseFacts, SaleFacts } from './checks';
import { sgtMonthStart } from './calc';
import { usedTonsQuery } from './usage';
import { lessAwaiting, tonsAwaitingApproval } from '../user/approval-requests';

// What each order use case reads before checking (checks.ts): once before the payment password, to refuse
// without hashing, and again inside its write transaction, where nobody else writes.

/** The user as the database holds them now: a user removed or disabled since the session was read has no
 *  session any more. */
export async function freshUser(db: DB | Tx, id: number): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user || user.disabled) throw new AppError('session_expired');
  return user;
}

export async function usedTons(db: DB | Tx, userId: number, projectId: number, since?: number): Promise<number> {
  const row = await usedTonsQuery(db, userId, projectId, since).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a buy is checked against, read in ONE query (inside the write transaction each round trip is time
 *  every other order waits): the visible project, the user's standing as it is now (disabled, risk, trading
 *  lock, grade), their tons of it this month and in all (their rows of order_usage, as usedTonsQuery counts
 *  them), their available balance, and the next order id (final inside the write transaction). */
export const purchaseFactsQuery = prepared((db, p: { userId: number; projectId: number; monthStart: number }) => {
  const used = db
    .selectFrom('order_usage')
    .select([sql<number>`coalesce(sum(case when month_start >= ${p.monthStart} then tons else 0 end), 0)`.as('monthly_used'), sql<number>`coalesce(sum(tons), 0)`.as('total_used')])
    .where('user_id', '=', p.userId)
    .where('project_id', '=', p.projectId);
  return db
    .selectFrom('projects')
    .leftJoin('users', (join) => join.on('users.id', '=', p.userId))
    // An aggregate without GROUP BY is always one row: the join keeps the project's.
    .innerJoin(used.as('used'), (join) => join.onTrue())
    .selectAll('projects')
    .select(['users.id as user_id', 'users.disabled as user_disabled', 'users.risk as user_risk', 'users.trade_locked as user_trade_locked', 'users.grade as user_grade'])
    .select(['used.monthly_used', 'used.total_used'])
    .select((eb) => [
      eb.fn.coalesce(db.selectFrom('ledger_accounts').select('balance').where('owner_id', '=', p.userId).where('name', '=', 'available'), eb.lit(0)).as('available'),
      db.selectFrom('orders').select(sql<number>`coalesce(max(id), 0) + 1`.as('next')).as('next_order_id'),
    ])
    .where('projects.id', '=', p.projectId)
    .where('projects.status', '!=', 'pending_review'); // as findVisibleProject
});

type PurchaseFactsRow = Awaited<ReturnType<typeof purchaseFactsQuery.execute>>['rows'][number];

export async function purchaseFacts(db: DB | Tx, userId: number, projectId: number, now: number): Promise<PurchaseFacts> {
  return purchaseFactsOf((await purchaseFactsQuery.execute(db, { userId, projectId, monthStart: sgtMonthStart(now) })).rows[0]);
}

/** A buy's facts from purchaseFactsQuery's row (a batch reads the rows of all its buys at once). */
export function purchaseFactsOf(row: PurchaseFactsRow | undefined): PurchaseFacts {
  if (!row) throw new AppError('not_found');
  const { monthly_used, total_used, available, next_order_id, user_id, user_disabled, user_risk, user_trade_locked, user_grade, ...p } = row;
  // As freshUser: a user removed or disabled since the session was read has no session any more.
  if (user_id === null || user_disabled) throw new AppError('session_expired');
  const standing = { risk: user_risk ?? 0, trade_locked: user_trade_locked ?? 0, grade: user_grade ?? 0 };
  return { p: p as ProjectRow, standing, monthlyUsed: Number(monthly_used), totalUsed: Number(total_used), available: Number(available), nextOrderId: Number(next_order_id) };
}

export async function bookingFacts(db: DB | Tx, userId: number, projectId: number, now: number): Promise<BookingFacts> {
  const p = await findVisibleProject(db, projectId);
  if (!p) return { p, monthlyUsed: 0, totalUsed: 0, available: 0 };
  return {
    p,
    monthlyUsed: await usedTons(db, userId, p.id, sgtMonthStart(now)),
    totalUsed: await usedTons(db, userId, p.id),
    available: (await walletOf(db, userId)).available,
  };
}

export async function finalPaymentFacts(db: DB | Tx, userId: number, orderId: number): Promise<FinalPaymentFacts> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
  return { order, available: order ? (await walletOf(db, userId)).available : 0 };
}

export async function saleFacts(db: DB | Tx, userId: number, projectId: number): Promise<SaleFacts> {
  const p = await findVisibleProject(db, projectId);
  const held = { purchase: 0, presale: 0 };
  if (!p) return { p, held };
  const rows = await db.selectFrom('credit_holdings').select(['origin', 'tons']).where('user_id', '=', userId).where('project_id', '=', p.id).execute();
  for (const r of rows) held[r.origin] += r.tons;
  // Tons a waiting approval request holds are not for sale (docs/product.md#approvals).
  return { p, held: lessAwaiting(held, await tonsAwaitingApproval(db, userId, p.id)) };
}
