import type { Deps } from '../../env';
import type { BatchOutcome, Batcher, EffectRecord, WriteScope } from '../../db/tx';
import { AppError } from '../../lib/http';
import { PLATFORM, postAhead, postManyAhead } from '../../ledger/ledger';
import { publishAll } from '../../live/events';
import type { Order } from '../../../shared/schemas/order';
import type { ProjectRow } from '../project/service';
import type { User } from '../session';
import { checkThenVerify } from '../user/trade-password';
import { cycleMs, sgtMonthStart } from './calc';
import { addEarlierBuy, afterEarlierBuys, checkPurchase, noEarlierBuys, type EarlierBuys } from './checks';
import { purchaseFacts, purchaseFactsOf, purchaseFactsQuery } from './facts';
import { invalidateOrder, orderInvalidations, projectInvalidation, toOrder, type OrderRow } from './repo';
import { changeUsage } from './usage';
import { insertOrder, insertOrders, orderRow, orderTx, takeSupply } from './writes';

// Buy by the ton (docs/product.md#buying): read the buy's facts, check them (checks.ts), write the supply
// taken, the order, the buyer's used tons, the ledger entry and the live messages. Alone or in a batch with
// the buys waiting for the same commit: the batch checks each buy with the same checkPurchase.

export interface OrderInput {
  project_id: number;
  tons: number;
  password: string;
}

export async function placePurchase(deps: Deps, user: User, input: OrderInput, record?: EffectRecord): Promise<Order> {
  const { db, clock } = deps;
  const recheck = async () => {
    const now = clock.now();
    checkPurchase(await purchaseFacts(db, user.id, input.project_id, now), user, input.tons, now);
  };
  // Cheap refusals (sold out, limits, status, grade, balance) before the password hash, and again once a
  // hash slot is free, so a sold-out burst is answered without hashing.
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return commitPurchase(deps, user, input, record);
}

/** A buy once its payment password is verified: its write transaction, alone or in a batch with the buys
 *  waiting with it (`purchases`). */
export function commitPurchase(deps: Deps, user: User, input: OrderInput, record?: EffectRecord): Promise<Order> {
  const { db, clock } = deps;
  return orderTx(
    db,
    'insufficient_balance',
    async (tx, w) => {
      const now = clock.now();
      const { p, total, nextOrderId, user: u } = checkPurchase(await purchaseFacts(tx, user.id, input.project_id, now), user, input.tons, now);
      await takeSupply(w, p.id, input.tons, now);
      const order = await insertOrder(w, purchaseValues(u.id, p, input.tons, total, now), nextOrderId);
      await changeUsage(w, [{ userId: u.id, projectId: p.id, createdAt: now, tons: input.tons }]);
      await postAhead(w, purchaseEntry(order, p, now));
      await invalidateOrder(w, u.id, order.id, now, p.id);
      // The answer, made from the rows this transaction wrote and read (no read back): stored with the
      // Idempotency-Key as it commits.
      return toOrder(order, p);
    },
    { record, batch: { batcher: purchases, input: { clock, user, input } } },
  );
}

function purchaseValues(userId: number, p: ProjectRow, tons: number, total: number, now: number) {
  return { user_id: userId, project_id: p.id, side: 'buy', kind: 'purchase', status: 'in_progress', unit_price: p.price, tons, total, booking_fee: 0, cycle_end: now + cycleMs(p.cycle_value, p.cycle_unit), created_at: now, updated_at: now } as const;
}

function purchaseEntry(order: OrderRow, p: ProjectRow, now: number) {
  return {
    kind: 'order_buy',
    ref_type: 'order',
    ref_id: order.id,
    memo: `Order ${order.order_no}: ${order.tons} t of ${p.name}`,
    now,
    postings: [
      { owner: order.user_id, account: 'available' as const, amount: -order.total },
      { owner: PLATFORM, account: 'sales' as const, amount: order.total },
    ],
  };
}

/** Buys that wait for the same commit, run as one batch (db/tx.ts Batcher): their facts read in one round
 *  trip, each buy checked in turn against them as the buys before it in the batch left them
 *  (afterEarlierBuys), and what the accepted ones write in a statement per table for all of them. What a buy
 *  alone does (commitPurchase), for each accepted buy, in the same order; a refused one writes nothing. */
const purchases: Batcher<{ clock: Deps['clock']; user: User; input: OrderInput }, Order> = {
  async many(w, buys) {
    const now = buys[0]!.clock.now();
    const monthStart = sgtMonthStart(now);
    const read = await Promise.all(buys.map(({ user, input }) => w.read(purchaseFactsQuery.compile(w.tx, { userId: user.id, projectId: input.project_id, monthStart }))));
    const earlier = noEarlierBuys();
    const accepted: { order: OrderRow; p: ProjectRow }[] = [];
    const outcomes = buys.map(({ user, input }, i): BatchOutcome<Order> => {
      try {
        const facts = afterEarlierBuys(purchaseFactsOf(read[i]!.rows[0]), user.id, earlier);
        const { p, total, nextOrderId, user: u } = checkPurchase(facts, user, input.tons, now);
        // Every buy read the same max(id) + 1 (nothing was written between the reads).
        const order = orderRow(purchaseValues(u.id, p, input.tons, total, now), nextOrderId + accepted.length);
        addEarlierBuy(earlier, u.id, p.id, input.tons, total);
        accepted.push({ order, p });
        return { ok: true, result: toOrder(order, p) };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, err };
        throw err;
      }
    });
    if (accepted.length > 0) await writePurchases(w, accepted, earlier, now);
    return outcomes;
  },
};

async function writePurchases(w: WriteScope, accepted: { order: OrderRow; p: ProjectRow }[], earlier: EarlierBuys, now: number): Promise<void> {
  for (const [projectId, tons] of earlier.taken) await takeSupply(w, projectId, tons, now);
  const orders = accepted.map(({ order }) => order);
  await insertOrders(w, orders);
  await changeUsage(
    w,
    orders.map((order) => ({ userId: order.user_id, projectId: order.project_id, createdAt: order.created_at, tons: order.tons })),
  );
  await postManyAhead(
    w,
    accepted.map(({ order, p }) => purchaseEntry(order, p, now)),
  );
  // One message per order to its buyer; one per project to everyone (its remaining supply moved).
  await publishAll(w, [...orders.flatMap((order) => orderInvalidations(order.user_id, order.id)), ...[...earlier.taken.keys()].map(projectInvalidation)], now);
}
