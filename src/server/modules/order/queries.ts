import { pageOf } from '../../db/paging';
import type { Config } from '../../config';
import type { DB } from '../../db/connection';
import { AppError } from '../../lib/http';
import { walletOf } from '../../ledger/ledger';
import type { CreditHolding, CreditMovement, Order, OrderCredits, OrderLimits, OrderSide, OrderStatus } from '../../../shared/schemas/order';
import { isoSgt } from '../../lib/clock';
import { findVisibleProject } from '../project/service';
import type { User } from '../session';
import { buybackPrice, sgtMonthStart } from './calc';
import { usedTons } from './facts';
import { loadOrder, toOrder } from './repo';

// The order reads: the caller's orders, one order, their credits and their limits on a project.

export async function listOrders(db: DB, userId: number, q: { status: OrderStatus | ''; side: OrderSide | ''; page: number; page_size: number }) {
  let query = db.selectFrom('orders as o').innerJoin('projects as p', 'p.id', 'o.project_id').where('o.user_id', '=', userId);
  if (q.status) query = query.where('o.status', '=', q.status);
  if (q.side) query = query.where('o.side', '=', q.side);
  return pageOf(
    query,
    q,
    (b) => b.selectAll('o').select(['p.name as p_name', 'p.name_cn as p_name_cn', 'p.image as p_image']).orderBy('o.id', 'desc'),
    (r) => toOrder(r, { name: r.p_name, name_cn: r.p_name_cn, image: r.p_image }),
  );
}

export async function orderDetail(db: DB, userId: number, id: number): Promise<Order> {
  const order = await loadOrder(db, id);
  if (!order) throw new AppError('not_found');
  const owner = await db.selectFrom('orders').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
  if (owner.user_id !== userId) throw new AppError('not_found');
  return order;
}

/** The caller's carbon credits: their balance, their holdings by project and the page of their credit
 *  movements. */
export async function creditsOf(db: DB, user: User, config: Config, q: { page: number; page_size: number }): Promise<OrderCredits> {
  const wallet = await walletOf(db, user.id);
  const holdings = await holdingsOf(db, user, config);
  const movements = await creditMovementsOf(db, user.id, q);
  return { balance: wallet.credits, holdings: holdings.filter((h) => h.tons > 0), ...movements };
}

/** The user's holdings per project (by origin), each with the tons they may sell back now
 *  (docs/product.md#selling-back). */
async function holdingsOf(db: DB, user: User, config: Config): Promise<CreditHolding[]> {
  const rows = await db
    .selectFrom('credit_holdings as h')
    .innerJoin('projects as p', 'p.id', 'h.project_id')
    .select(['h.project_id', 'h.origin', 'h.tons', 'p.name', 'p.name_cn', 'p.image', 'p.price', 'p.yield_bp'])
    .where('h.user_id', '=', user.id)
    .orderBy('h.project_id')
    .execute();
  const byProject = new Map<number, CreditHolding>();
  for (const r of rows) {
    let h = byProject.get(r.project_id);
    if (!h) {
      h = {
        project_id: r.project_id,
        project_name: r.name,
        project_name_cn: r.name_cn || r.name,
        project_image: r.image,
        tons: 0,
        purchase_tons: 0,
        presale_tons: 0,
        buyback_price: buybackPrice(r.price, r.yield_bp),
        sellable_tons: 0,
      };
      byProject.set(r.project_id, h);
    }
    h.tons += r.tons;
    if (r.origin === 'purchase') h.purchase_tons += r.tons;
    else h.presale_tons += r.tons;
  }
  const canSell = !user.risk && user.grade >= config.SELL_MIN_GRADE;
  const canSellPresale = canSell && user.grade >= config.PRESALE_SELL_MIN_GRADE;
  for (const h of byProject.values()) h.sellable_tons = canSell ? h.purchase_tons + (canSellPresale ? h.presale_tons : 0) : 0;
  return [...byProject.values()];
}

/** A page of the user's credit movements (their fund logs of the credits account), newest first, each with
 *  the order and project it came from. */
function creditMovementsOf(db: DB, userId: number, q: { page: number; page_size: number }) {
  const logs = db
    .selectFrom('fund_logs as f')
    .leftJoin('orders as o', (j) => j.onRef('o.id', '=', 'f.ref_id').on('f.ref_type', '=', 'order'))
    .leftJoin('projects as p', 'p.id', 'o.project_id')
    .where('f.owner_id', '=', userId)
    .where('f.account_name', '=', 'credits');
  return pageOf(
    logs,
    q,
    (b) =>
      b
        .select(['f.id', 'f.kind', 'f.amount', 'f.balance_after', 'f.memo', 'f.created_at', 'o.id as order_id', 'o.order_no', 'o.project_id', 'p.name', 'p.name_cn'])
        .orderBy('f.id', 'desc'),
    (r): CreditMovement => ({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      balance_after: r.balance_after,
      order_id: r.order_id,
      order_no: r.order_no,
      project_id: r.project_id,
      project_name: r.name,
      project_name_cn: r.name_cn ? r.name_cn : r.name,
      memo: r.memo,
      created_at: isoSgt(r.created_at),
      created_at_ms: r.created_at,
    }),
  );
}

/** The caller's own limits on a project (for the project detail and buy screens). */
export async function limitsOf(db: DB, user: User, projectId: number, now: number): Promise<OrderLimits> {
  const p = await findVisibleProject(db, projectId);
  if (!p) throw new AppError('not_found');
  const monthly = await usedTons(db, user.id, p.id, sgtMonthStart(now));
  const total = await usedTons(db, user.id, p.id);
  return {
    project_id: p.id,
    monthly_limit: p.monthly_limit,
    total_limit: p.total_limit,
    monthly_used: monthly,
    total_used: total,
    monthly_left: Math.max(0, p.monthly_limit - monthly),
    total_left: Math.max(0, p.total_limit - total),
    required_grade: p.required_grade,
    grade: user.grade,
  };
}
