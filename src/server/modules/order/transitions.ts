import { emitWebhookEvent } from '../webhook/outbox';
import { changeUsage } from './usage';
import type { DB } from '../../db/connection';
import { writeTx, type WriteScope } from '../../db/tx';
import { PLATFORM, post } from '../../ledger/ledger';
import { publish } from '../../live/events';
import { allocate, gradeForPurchases } from './calc';
import { invalidateOrder, type OrderRow } from './repo';
import { notify } from '../../live/notices';
import { ORDER_URLS } from './reminders';
import type { ProjectRow } from '../project/service';
import { unpromisedTons } from '../registry/holdings';
import { completedPurchaseCents } from '../user/membership';

// Time-driven and operator-driven transitions of orders and projects. Each one runs in its own write
// transaction and starts with a conditional UPDATE on the current status, so a transition runs exactly
// once however many schedulers (or restarts) look at the same row.

const fmtTons = (n: number) => `${n} t`;

/** A purchase (or paid pre-sale) whose cycle has ended: completed, and its tons reach the credits balance. */
export async function completeCycle(db: DB, orderId: number, now: number, gradeThresholds: readonly number[]): Promise<boolean> {
  return writeTx(db, async (tx, w) => {
    const order = await tx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!order || order.side !== 'buy' || order.cycle_end === null || order.cycle_end > now) return false;
    const res = await tx
      .updateTable('orders')
      .set({ status: 'completed', completed_at: now, updated_at: now })
      .where('id', '=', orderId)
      .where('status', 'in', ['in_progress', 'final_payment_made'])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const tons = order.kind === 'presale' ? (order.final_tons ?? 0) : order.tons;
    const origin = order.kind === 'presale' ? 'presale' : 'purchase';
    const project = await tx.selectFrom('projects').select(['name', 'name_cn']).where('id', '=', order.project_id).executeTakeFirstOrThrow();
    if (tons > 0) {
      await post(tx, {
        kind: 'credit_issue',
        ref_type: 'order',
        ref_id: order.id,
        memo: `Order ${order.order_no} completed: ${fmtTons(tons)} of ${project.name}`,
        now,
        postings: [
          { owner: PLATFORM, account: 'registry', amount: -tons },
          { owner: order.user_id, account: 'credits', amount: tons },
        ],
      });
      await tx
        .insertInto('credit_holdings')
        .values({ user_id: order.user_id, project_id: order.project_id, origin, tons, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'project_id', 'origin']).doUpdateSet((eb) => ({ tons: eb('credit_holdings.tons', '+', tons), updated_at: now })))
        .execute();
    }
    await raiseGrade(w, order.user_id, now, gradeThresholds);
    await notify(
      w,
      order.user_id,
      {
        // The title names the order and the project: it is what a live toast or a push shows, wherever the
        // member is in the app.
        title: `Order ${order.order_no} completed: ${fmtTons(tons)} of ${project.name}`,
        title_cn: `订单 ${order.order_no} 已完成：${tons} 吨 ${project.name_cn || project.name}`,
        body: `Order ${order.order_no} is complete: ${fmtTons(tons)} of ${project.name} added to your carbon credits.`,
        body_cn: `订单 ${order.order_no} 已完成：${tons} 吨 ${project.name_cn || project.name} 已计入您的碳信用。`,
        url: ORDER_URLS.completed,
      },
      now,
    );
    await invalidateOrder(w, order.user_id, order.id, now);
    await emitWebhookEvent(w, { owner: order.user_id, mode: 'live', type: 'order.completed', data: { id: order.id, order_no: order.order_no, project_id: order.project_id, kind: order.kind, tons, total: order.total, status: 'completed', completed_at: now } }, now);
    return true;
  });
}

/** Grade from completed purchases (thresholds in config). Only ever raised here; an operator may set any. */
async function raiseGrade(w: WriteScope, userId: number, now: number, thresholds: readonly number[]): Promise<void> {
  const tx = w.tx;
  const grade = gradeForPurchases(await completedPurchaseCents(tx, userId), thresholds);
  const res = await tx.updateTable('users').set({ grade, updated_at: now }).where('id', '=', userId).where('grade', '<', grade).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) {
    await notify(w, userId, { title: `Membership upgraded to P${grade}`, title_cn: `会员等级已升至 P${grade}`, body: `Your completed purchases reached membership grade P${grade}.`, body_cn: `您的累计购买已达到会员等级 P${grade}。`, url: '/pages/profile/membership' }, now);
  }
}

/** A pre-sale whose final-payment deadline passed unpaid: expired, booking fee forfeited, allocated tons
 *  back to the project's supply, credit score lowered (medium after one, poor after two or more). */
export async function expireFinalPayment(db: DB, orderId: number, now: number): Promise<boolean> {
  return writeTx(db, async (tx, w) => {
    const order = await tx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!order || order.final_deadline === null || order.final_deadline > now) return false;
    const res = await tx
      .updateTable('orders')
      .set({ status: 'final_payment_expired', updated_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'pending_final_payment')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    // An expired order no longer counts towards the buyer's limits.
    await changeUsage(w, [{ userId: order.user_id, projectId: order.project_id, createdAt: order.created_at, tons: -(order.final_tons ?? order.tons) }]);
    if (order.booking_fee > 0) await forfeitBookingFee(w, order, now);
    if (order.final_tons) await returnSupply(w, order.project_id, order.final_tons, now);
    await lowerCreditScore(w, order.user_id, now);
    await notify(
      w,
      order.user_id,
      {
        title: 'Final payment period expired',
        title_cn: '尾款支付期限已过',
        body: `The final payment of pre-sale order ${order.order_no} was not made before its deadline; the booking fee is forfeited.`,
        body_cn: `预售订单 ${order.order_no} 未在截止时间前支付尾款，预订费已被没收。`,
        url: ORDER_URLS.all,
      },
      now,
    );
    await invalidateOrder(w, order.user_id, order.id, now);
    return true;
  });
}

async function forfeitBookingFee(w: WriteScope, order: OrderRow, now: number): Promise<void> {
  await post(w.tx, {
    kind: 'presale_forfeit',
    ref_type: 'order',
    ref_id: order.id,
    memo: `Final payment of ${order.order_no} not made in time: booking fee forfeited`,
    now,
    postings: [
      { owner: order.user_id, account: 'presale', amount: -order.booking_fee },
      { owner: PLATFORM, account: 'forfeits', amount: order.booking_fee },
    ],
  });
}

/** Allocated tons an expired pre-sale gives back to its project's supply. */
async function returnSupply(w: WriteScope, projectId: number, tons: number, now: number): Promise<void> {
  await w.tx
    .updateTable('projects')
    .set((eb) => ({ remaining_tons: eb('remaining_tons', '+', tons), updated_at: now }))
    .where('id', '=', projectId)
    .execute();
  await publish(w, { type: 'invalidate', tables: ['projects'], ids: [projectId] }, null, now);
}

/** The buyer's credit score after an expired final payment: medium after one, poor after two or more. */
async function lowerCreditScore(w: WriteScope, userId: number, now: number): Promise<void> {
  const { tx } = w;
  const { n } = await tx
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'final_payment_expired')
    .executeTakeFirstOrThrow();
  await tx
    .updateTable('users')
    .set({ credit_score: Number(n) >= 2 ? 'poor' : 'medium', updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Sale proceeds whose settlement day has come: unavailable -> available, the sell order completes. */
export async function settleSale(db: DB, orderId: number, now: number): Promise<boolean> {
  return writeTx(db, async (tx, w) => {
    const order = await tx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!order || order.side !== 'sell' || order.settle_at === null || order.settle_at > now) return false;
    const res = await tx
      .updateTable('orders')
      .set({ status: 'completed', settled_at: now, completed_at: now, updated_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'in_progress')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await post(tx, {
      kind: 'sale_settlement',
      ref_type: 'order',
      ref_id: order.id,
      memo: `Proceeds of ${order.order_no} settled`,
      now,
      postings: [
        { owner: order.user_id, account: 'unavailable', amount: -order.total },
        { owner: order.user_id, account: 'available', amount: order.total },
      ],
    });
    await notify(
      w,
      order.user_id,
      {
        title: 'Sale proceeds available',
        title_cn: '出售款项已到账',
        body: `The proceeds of sell order ${order.order_no} are now in your available balance.`,
        body_cn: `出售订单 ${order.order_no} 的款项已转入您的可用余额。`,
        url: ORDER_URLS.sell,
      },
      now,
    );
    await invalidateOrder(w, order.user_id, order.id, now);
    return true;
  });
}

/** Project status by time (docs/product.md#projects): a pre-sale opens for buying at its selling time; a
 *  project closes when its end time passes or, once selling, when it is sold out. */
export async function moveProjectByTime(db: DB, projectId: number, now: number): Promise<string | null> {
  return writeTx(db, async (tx, w) => {
    const p = await tx.selectFrom('projects').select(['id', 'status', 'selling_time', 'end_time', 'remaining_tons']).where('id', '=', projectId).executeTakeFirst();
    if (!p) return null;
    let to: 'in_progress' | 'closed' | null = null;
    if ((p.status === 'presale' || p.status === 'in_progress') && now >= p.end_time) to = 'closed';
    else if (p.status === 'in_progress' && p.remaining_tons <= 0) to = 'closed';
    else if (p.status === 'presale' && now >= p.selling_time) to = 'in_progress';
    if (!to) return null;
    // A pre-sale with bookings still awaiting allocation waits for the operator: opening it to buyers first
    // would let them take the supply the bookings were promised, and closing it would strand their fees.
    if (p.status === 'presale') {
      const waiting = await tx.selectFrom('orders').select('id').where('project_id', '=', p.id).where('status', '=', 'applying').executeTakeFirst();
      if (waiting) return null;
    }
    const res = await tx.updateTable('projects').set({ status: to, updated_at: now }).where('id', '=', p.id).where('status', '=', p.status).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    await publish(w, { type: 'invalidate', tables: ['projects'], ids: [p.id] }, null, now);
    return to;
  });
}

export class AllocationRefused extends Error {}

export interface AllocationResult {
  project_id: number;
  final_unit_price: number;
  supply: number;
  booked: number;
  allocated: number;
  oversubscribed: boolean;
  final_deadline: number;
  orders: { id: number; order_no: string; user_id: number; booked: number; final_tons: number; final_amount: number; status: string }[];
}

/** What an allocation of `projectId` checks before it writes: the project is a pre-sale in pre-sale with
 *  bookings awaiting allocation. */
function checkAllocation(p: ProjectRow | undefined, bookings: readonly OrderRow[], projectId: number): asserts p is ProjectRow {
  if (!p) throw new AllocationRefused(`no project #${projectId}`);
  if (p.presale_price === null) throw new AllocationRefused(`project #${projectId} is not a pre-sale`);
  if (p.status !== 'presale') throw new AllocationRefused(`project #${projectId} is ${p.status}: only a project in pre-sale can be allocated`);
  if (bookings.length === 0) throw new AllocationRefused(`project #${projectId} has no bookings awaiting allocation`);
}

/** Operator allocation of a pre-sale (presale:allocate): every booking still "applying" gets the final unit
 *  price and its final tons (as booked, or pro rata when oversubscribed against the remaining supply), then
 *  waits for its final payment until now + payHours. A booking allocated 0 tons gets its fee back and
 *  completes with 0 tons. One transaction for the whole allocation. */
export async function allocatePresale(db: DB, projectId: number, price: number, now: number, payHours: number): Promise<AllocationResult> {
  if (!Number.isSafeInteger(price) || price < 1) throw new AllocationRefused('the final price must be a positive whole number of cents');
  return writeTx(db, async (tx, w) => {
    const p = await tx.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
    const bookings = p ? await tx.selectFrom('orders').selectAll().where('project_id', '=', projectId).where('kind', '=', 'presale').where('status', '=', 'applying').orderBy('id').execute() : [];
    checkAllocation(p, bookings, projectId);
    const supply = p.remaining_tons;
    const shares = allocate(bookings.map((b) => ({ id: b.id, tons: b.tons })), supply);
    const booked = bookings.reduce((s, b) => s + b.tons, 0);
    const allocated = [...shares.values()].reduce((s, n) => s + n, 0);
    // A pre-sale sold forward tons: they are delivered from the issuance, so its allocation waits until the
    // issuance block is held (docs/product.md#registry-inventory).
    const held = unpromisedTons(p);
    if (allocated > held) {
      throw new AllocationRefused(`project #${projectId}: the allocation needs ${allocated} t held on the registry and ${held} t are held and not yet promised; add the issuance block first (inventory:add)`);
    }
    const deadline = now + payHours * 3_600_000;
    if (allocated > 0) await takeAllocatedSupply(w, p.id, allocated, now);
    // A booking counts its final tons towards the buyer's limits from now on, not the tons it booked.
    await changeUsage(
      w,
      bookings.map((b) => ({ userId: b.user_id, projectId: b.project_id, createdAt: b.created_at, tons: (shares.get(b.id) ?? 0) - b.tons })),
    );
    const out: AllocationResult['orders'] = [];
    for (const b of bookings) {
      const finalTons = shares.get(b.id) ?? 0;
      out.push(finalTons === 0 ? await refundUnallocated(w, b, price, now) : await askFinalPayment(w, b, finalTons, price, deadline, now));
      await invalidateOrder(w, b.user_id, b.id, now);
    }
    await publish(w, { type: 'invalidate', tables: ['projects'], ids: [p.id] }, null, now);
    return { project_id: p.id, final_unit_price: price, supply, booked, allocated, oversubscribed: booked > supply, final_deadline: deadline, orders: out };
  });
}

async function takeAllocatedSupply(w: WriteScope, projectId: number, tons: number, now: number): Promise<void> {
  const res = await w.tx
    .updateTable('projects')
    .set((eb) => ({ remaining_tons: eb('remaining_tons', '-', tons), updated_at: now }))
    .where('id', '=', projectId)
    .where('remaining_tons', '>=', tons)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new AllocationRefused('the remaining supply changed; try again');
}

/** A booking allocated 0 tons: completed with 0 tons, its booking fee back to available. */
async function refundUnallocated(w: WriteScope, b: OrderRow, price: number, now: number): Promise<AllocationResult['orders'][number]> {
  const { tx } = w;
  await tx
    .updateTable('orders')
    .set({ status: 'completed', final_unit_price: price, final_tons: 0, final_amount: 0, completed_at: now, updated_at: now })
    .where('id', '=', b.id)
    .execute();
  if (b.booking_fee > 0) {
    await post(tx, {
      kind: 'presale_refund',
      ref_type: 'order',
      ref_id: b.id,
      memo: `Pre-sale ${b.order_no} allocated 0 t: booking fee returned`,
      now,
      postings: [
        { owner: b.user_id, account: 'presale', amount: -b.booking_fee },
        { owner: b.user_id, account: 'available', amount: b.booking_fee },
      ],
    });
  }
  await notify(w, b.user_id, { title: 'Pre-sale allocated', title_cn: '预售已分配', body: `Pre-sale ${b.order_no} was oversubscribed and received no tons; your booking fee is returned.`, body_cn: `预售订单 ${b.order_no} 超额认购，未获分配；预订费已退回。`, url: ORDER_URLS.all }, now);
  return { id: b.id, order_no: b.order_no, user_id: b.user_id, booked: b.tons, final_tons: 0, final_amount: 0, status: 'completed' };
}

/** A booking allocated tons: its final amount (the fee already paid counts) due before the deadline. */
async function askFinalPayment(w: WriteScope, b: OrderRow, finalTons: number, price: number, deadline: number, now: number): Promise<AllocationResult['orders'][number]> {
  const finalAmount = Math.max(0, finalTons * price - b.booking_fee);
  await w.tx
    .updateTable('orders')
    .set({ status: 'pending_final_payment', final_unit_price: price, final_tons: finalTons, final_amount: finalAmount, final_deadline: deadline, updated_at: now })
    .where('id', '=', b.id)
    .execute();
  await notify(
    w,
    b.user_id,
    {
      title: 'Final payment due',
      title_cn: '请支付尾款',
      body: `Pre-sale ${b.order_no}: ${finalTons} t allocated at S$${(price / 100).toFixed(2)}/t. Pay the final balance before the deadline.`,
      body_cn: `预售订单 ${b.order_no}：已分配 ${finalTons} 吨，单价 S$${(price / 100).toFixed(2)}/吨，请在截止时间前支付尾款。`,
      url: ORDER_URLS.pending,
    },
    now,
  );
  return { id: b.id, order_no: b.order_no, user_id: b.user_id, booked: b.tons, final_tons: finalTons, final_amount: finalAmount, status: 'pending_final_payment' };
}
