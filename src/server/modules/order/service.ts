import { sql, type Insertable } from 'kysely';
import { isCheck } from '../../db/errors';
import { pageOf } from '../../db/paging';
import type { Deps } from '../../env';
import type { Config } from '../../config';
import type { DB } from '../../db/connection';
import type { OrdersTable } from '../../db/schema';
import { readAhead, writeAhead, writeTx, writeTxBatched, type BatchOutcome, type Batcher, type Tx } from '../../db/tx';
import { dialectOf } from '../../db/connection';
import { publishAll } from '../../live/events';
import { prepared } from '../../db/prepared';
import { AppError } from '../../lib/http';
import { PLATFORM, postAhead, postManyAhead, walletOf } from '../../ledger/ledger';
import type { ErrorKey } from '../../../shared/errors';
import type { CreditHolding, CreditMovement, Order, OrderCredits, OrderLimits, OrderSide, OrderStatus } from '../../../shared/schemas/order';
import { isoSgt } from '../../lib/clock';
import { assertNotRisk, checkThenVerify } from '../user/trade-password';
import { findVisibleProject, joinBlock, type ProjectRow } from '../project/service';
import type { User } from '../session';
import { bookingFee, buybackPrice, cycleMs, orderNumber, settlementTime, sgtMonthStart } from './calc';
import { changeUsage, usedTonsQuery } from './usage';
import { invalidateOrder, loadOrder, orderInvalidations, projectInvalidation, takeHolding, toOrder, type OrderRow } from './repo';

// The order engine (docs/product.md#buying, docs/product.md#pre-sale, docs/product.md#selling-back). Every
// write: the caller is a signed-in user; cheap checks run first so a refusal that needs no password costs no
// password attempt; the payment password (argon2id, in a bounded hash lane: lib/hash-work.ts) is verified
// outside the transaction, so the hash never holds the single writer; then ONE write transaction (db/tx.ts
// writeTx: one writer at a time, concurrent orders sharing a commit) repeats every check against fresh rows
// and does the remaining-supply update, the ledger postings and the order row together.
// Database CHECKs are the last line: a CHECK failure maps to the matching catalogue refusal, never a 500.

export interface OrderInput {
  project_id: number;
  tons: number;
  password: string;
}

const BLOCK_KEYS = { not_started: 'project_not_started', ended: 'project_ended', full: 'project_full' } as const;

async function orderTx<T, I>(db: DB, onNegativeBalance: ErrorKey, fn: (tx: Tx) => Promise<T>, batch?: { batcher: Batcher<I, T>; input: I }): Promise<T> {
  try {
    return await (batch ? writeTxBatched(db, batch.batcher, batch.input, fn) : writeTx(db, fn));
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isCheck(err, 'projects_remaining')) throw new AppError('insufficient_remaining');
    if (isCheck(err, 'ledger_accounts_not_negative')) throw new AppError(onNegativeBalance);
    if (isCheck(err, 'credit_holdings_tons_check', 'tons >= 0')) throw new AppError('insufficient_credits');
    throw err;
  }
}

async function freshUser(db: DB | Tx, id: number): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user || user.disabled) throw new AppError('session_expired');
  return user;
}

function assertCanTrade(user: User): void {
  assertNotRisk(user);
  if (user.trade_locked) throw new AppError('account_locked');
}

async function projectOf(db: DB | Tx, id: number): Promise<ProjectRow> {
  const project = await findVisibleProject(db, id);
  if (!project) throw new AppError('not_found');
  return project;
}

async function usedTons(db: DB | Tx, userId: number, projectId: number, since?: number): Promise<number> {
  const row = await usedTonsQuery(db, userId, projectId, since).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a buy is checked against, read in ONE query (inside the write transaction each round trip is
 *  time every other order waits; ~0.1-0.3 ms on PostgreSQL): the visible project, the user's standing as
 *  it is now (disabled, risk, trading lock, grade), their tons of it this month and in all (their rows of
 *  order_usage, as usedTonsQuery counts them: one per month they bought in), their available balance, and the next order
 *  id (final inside the write transaction, where nobody else writes). */
const purchaseFactsQuery = prepared((db, p: { userId: number; projectId: number; monthStart: number }) => {
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

async function purchaseFacts(db: DB | Tx, userId: number, projectId: number, now: number): Promise<PurchaseFacts> {
  return purchaseFactsOf((await purchaseFactsQuery.execute(db, { userId, projectId, monthStart: sgtMonthStart(now) })).rows[0]);
}

type PurchaseFactsRow = Awaited<ReturnType<typeof purchaseFactsQuery.execute>>['rows'][number];
type PurchaseFacts = ReturnType<typeof purchaseFactsOf>;

function purchaseFactsOf(row: PurchaseFactsRow | undefined) {
  if (!row) throw new AppError('not_found');
  const { monthly_used, total_used, available, next_order_id, user_id, user_disabled, user_risk, user_trade_locked, user_grade, ...p } = row;
  // As freshUser: a user removed or disabled since the session was read has no session any more.
  if (user_id === null || user_disabled) throw new AppError('session_expired');
  const standing = { risk: user_risk ?? 0, trade_locked: user_trade_locked ?? 0, grade: user_grade ?? 0 };
  return { p: p as ProjectRow, standing, monthlyUsed: Number(monthly_used), totalUsed: Number(total_used), available: Number(available), nextOrderId: Number(next_order_id) };
}

async function checkLimits(db: DB | Tx, user: User, p: ProjectRow, tons: number, now: number): Promise<void> {
  const monthly = await usedTons(db, user.id, p.id, sgtMonthStart(now));
  if (monthly + tons > p.monthly_limit) throw new AppError('monthly_limit', { n: p.monthly_limit });
  const total = await usedTons(db, user.id, p.id);
  if (total + tons > p.total_limit) throw new AppError('total_limit', { n: p.total_limit });
}

function checkTons(p: ProjectRow, tons: number): void {
  if (tons < p.min_tons) throw new AppError('below_min_tons', { n: p.min_tons });
  if (tons > p.max_tons) throw new AppError('above_max_tons', { n: p.max_tons });
}

async function checkAvailable(db: DB | Tx, userId: number, cents: number): Promise<void> {
  if ((await walletOf(db, userId)).available < cents) throw new AppError('insufficient_balance');
}

async function insertOrder(tx: Tx, values: Omit<Insertable<OrdersTable>, 'id' | 'order_no'>, nextId?: number): Promise<OrderRow> {
  // Inside the write transaction nobody else writes, so max(id) + 1 is this row's id and the number is
  // final (`nextId`: max(id) + 1 already read in this transaction).
  const id = nextId ?? Number((await tx.selectFrom('orders').select(sql<number>`coalesce(max(id), 0) + 1`.as('next')).executeTakeFirstOrThrow()).next);
  // Every column is written as this row says (no default of the table fills one in), so the row is what
  // the database holds and nothing needs to be read back: on PostgreSQL the job does not wait for the
  // insert's round trip (db/tx.ts writeAhead); what the job reads after it sees it.
  const row = orderRow(values, id);
  await writeAhead(tx, orderInsert.compile(tx, row));
  return row;
}

/** Orders of a batch (purchases), as insertOrder writes them one by one: on PostgreSQL one statement for
 *  all, sent ahead. */
async function insertOrders(tx: Tx, rows: readonly OrderRow[]): Promise<void> {
  if (dialectOf(tx) !== 'postgres') {
    for (const row of rows) await writeAhead(tx, orderInsert.compile(tx, row));
    return;
  }
  await writeAhead(tx, ordersInsert.compile(tx, { rows: JSON.stringify(rows) }));
}

/** Every column of an order's row, as orderInsert names them (the compiler checks none is left out). */
const ORDER_COLUMNS = [
  'id', 'order_no', 'user_id', 'project_id', 'side', 'kind', 'status', 'unit_price', 'tons', 'total', 'booking_fee', 'final_unit_price', 'final_tons',
  'final_amount', 'final_deadline', 'cycle_end', 'presale_tons', 'settle_at', 'settled_at', 'completed_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof OrderRow)[];
const everyOrderColumn: Exclude<keyof OrderRow, (typeof ORDER_COLUMNS)[number]> extends never ? true : never = true;
void everyOrderColumn;

/** PostgreSQL: orders from JSON rows (OrderRow), every column named as orderInsert names them, in the order given. */
const ordersInsert = prepared((db, p: { rows: string }) => {
  const columns = sql.join(ORDER_COLUMNS.map((c) => sql.ref(c)));
  return { compile: () => sql`insert into orders (${columns}) select ${columns} from json_populate_recordset(null::orders, ${p.rows}::json)`.compile(db) };
});

/** The order's row as insertOrder writes it: every column named. */
function orderRow(values: Omit<Insertable<OrdersTable>, 'id' | 'order_no'>, id: number): OrderRow {
  return {
    id,
    order_no: orderNumber(values.kind, id, values.created_at),
    user_id: values.user_id,
    project_id: values.project_id,
    side: values.side,
    kind: values.kind,
    status: values.status,
    unit_price: values.unit_price,
    tons: values.tons,
    total: values.total,
    booking_fee: values.booking_fee ?? 0,
    final_unit_price: values.final_unit_price ?? null,
    final_tons: values.final_tons ?? null,
    final_amount: values.final_amount ?? null,
    final_deadline: values.final_deadline ?? null,
    cycle_end: values.cycle_end ?? null,
    presale_tons: values.presale_tons ?? 0,
    settle_at: values.settle_at ?? null,
    settled_at: values.settled_at ?? null,
    completed_at: values.completed_at ?? null,
    created_at: values.created_at,
    updated_at: values.updated_at,
  };
}

/** The order's insert, every column named (the compiler checks none is left out), built once. */
const orderInsert = prepared((db, p: OrderRow) =>
  db.insertInto('orders').values({
    id: p.id,
    order_no: p.order_no,
    user_id: p.user_id,
    project_id: p.project_id,
    side: p.side,
    kind: p.kind,
    status: p.status,
    unit_price: p.unit_price,
    tons: p.tons,
    total: p.total,
    booking_fee: p.booking_fee,
    final_unit_price: p.final_unit_price,
    final_tons: p.final_tons,
    final_amount: p.final_amount,
    final_deadline: p.final_deadline,
    cycle_end: p.cycle_end,
    presale_tons: p.presale_tons,
    settle_at: p.settle_at,
    settled_at: p.settled_at,
    completed_at: p.completed_at,
    created_at: p.created_at,
    updated_at: p.updated_at,
  } satisfies Record<keyof OrderRow, unknown>), // a column left out here would take the table's default, not the row's value
);

/** Takes tons from a project's remaining supply. The buy's checks read the remaining tons in this same
 *  write transaction (nobody else writes in between), and the CHECK (remaining_tons >= 0) refuses any
 *  overdraw, mapped to insufficient_remaining by orderTx: so nothing needs to read this update's count, and
 *  on PostgreSQL the job does not wait for its round trip (db/tx.ts writeAhead). */
async function takeSupply(tx: Tx, projectId: number, tons: number, now: number): Promise<void> {
  await writeAhead(tx, supplyTaken.compile(tx, { projectId, tons, now }));
}

const supplyTaken = prepared((db, p: { projectId: number; tons: number; now: number }) =>
  db
    .updateTable('projects')
    .set((eb) => ({ remaining_tons: eb('remaining_tons', '-', p.tons), updated_at: p.now }))
    .where('id', '=', p.projectId),
);

// ---------------------------------------------------------------------------------------------------
// Buy by the ton

async function validatePurchase(db: DB | Tx, sessionUser: User, input: OrderInput, now: number) {
  return checkPurchase(await purchaseFacts(db, sessionUser.id, input.project_id, now), sessionUser, input, now);
}

/** A buy's checks against its facts (validatePurchase; a batch checks each buy against facts that count the
 *  buys before it in the batch). */
function checkPurchase(facts: PurchaseFacts, sessionUser: User, input: OrderInput, now: number) {
  const { p, standing, monthlyUsed, totalUsed, available, nextOrderId } = facts;
  // The user's standing as the facts read it (inside the write transaction: as it is at the commit).
  const user: User = { ...sessionUser, ...standing };
  assertCanTrade(user);
  // Sold out before its end time reads "full" even once the scheduler has closed it (docs/product.md#projects:
  // sold out -> closed); otherwise the reason the project card shows.
  const block = p.remaining_tons <= 0 && now < p.end_time ? 'full' : joinBlock(p, now);
  if (block) throw new AppError(BLOCK_KEYS[block]);
  if (p.status !== 'in_progress') throw new AppError('project_not_started'); // a pre-sale still taking bookings
  checkTons(p, input.tons);
  if (user.grade < p.required_grade) throw new AppError('grade_not_met');
  // The limits and the balance as checkLimits and checkAvailable check them, from the facts read above.
  if (monthlyUsed + input.tons > p.monthly_limit) throw new AppError('monthly_limit', { n: p.monthly_limit });
  if (totalUsed + input.tons > p.total_limit) throw new AppError('total_limit', { n: p.total_limit });
  if (input.tons > p.remaining_tons) throw new AppError('insufficient_remaining');
  const total = input.tons * p.price;
  if (available < total) throw new AppError('insufficient_balance');
  return { p, total, nextOrderId, user };
}

export async function placePurchase(deps: Deps, user: User, input: OrderInput): Promise<Order> {
  const { db, clock } = deps;
  const recheck = async () => void (await validatePurchase(db, user, input, clock.now()));
  // Cheap refusals (sold out, limits, status, grade, balance) before the password hash, and again once a
  // hash slot is free, so a sold-out burst is answered without hashing.
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return commitPurchase(deps, user, input);
}

/** A buy once its payment password is verified: its write transaction, alone or in a batch with the buys
 *  waiting with it (`purchases`). */
export function commitPurchase(deps: Deps, user: User, input: OrderInput): Promise<Order> {
  const { db, clock } = deps;
  return orderTx(
    db,
    'insufficient_balance',
    async (tx) => {
      const now = clock.now();
      const { p, total, nextOrderId, user: u } = await validatePurchase(tx, user, input, now);
      await takeSupply(tx, p.id, input.tons, now);
      const order = await insertOrder(tx, purchaseValues(u.id, p, input.tons, total, now), nextOrderId);
      await changeUsage(tx, [{ userId: u.id, projectId: p.id, createdAt: now, tons: input.tons }]);
      await postAhead(tx, purchaseEntry(order, p, now));
      await invalidateOrder(tx, u.id, order.id, now, p.id);
      // The answer, made from the rows this transaction wrote and read (no read back): stored with the
      // Idempotency-Key as it commits.
      return toOrder(order, p);
    },
    { batcher: purchases, input: { clock, user, input } },
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
 *  trip, each buy checked in turn against them as the buys before it in the batch left them (the project's
 *  remaining tons, the buyer's balance and tons of it this month and in all, the next order id), and what the
 *  accepted ones write in a statement per table for all of them. What a buy alone does (placePurchase), for
 *  each accepted buy, in the same order; a refused one writes nothing. */
const purchases: Batcher<{ clock: Deps['clock']; user: User; input: OrderInput }, Order> = {
  async many(tx, buys) {
    const now = buys[0]!.clock.now();
    const monthStart = sgtMonthStart(now);
    const read = await Promise.all(buys.map(({ user, input }) => readAhead(tx, purchaseFactsQuery.compile(tx, { userId: user.id, projectId: input.project_id, monthStart }))));
    const taken = new Map<number, number>(); // project id -> tons the accepted buys took
    const spent = new Map<number, number>(); // user id -> cents they paid
    const bought = new Map<string, number>(); // user id, project id -> tons they bought
    const accepted: { order: OrderRow; p: ProjectRow }[] = [];
    const outcomes = buys.map(({ user, input }, i): BatchOutcome<Order> => {
      try {
        const facts = purchaseFactsOf(read[i]!.rows[0]);
        const mine = `${user.id}\n${facts.p.id}`;
        const before = bought.get(mine) ?? 0;
        const { p, total, nextOrderId, user: u } = checkPurchase(
          {
            ...facts,
            p: { ...facts.p, remaining_tons: facts.p.remaining_tons - (taken.get(facts.p.id) ?? 0) },
            available: facts.available - (spent.get(user.id) ?? 0),
            monthlyUsed: facts.monthlyUsed + before,
            totalUsed: facts.totalUsed + before,
          },
          user,
          input,
          now,
        );
        // Every buy read the same max(id) + 1 (nothing was written between the reads).
        const order = orderRow(purchaseValues(u.id, p, input.tons, total, now), nextOrderId + accepted.length);
        taken.set(p.id, (taken.get(p.id) ?? 0) + input.tons);
        spent.set(u.id, (spent.get(u.id) ?? 0) + total);
        bought.set(mine, before + input.tons);
        accepted.push({ order, p });
        return { ok: true, result: toOrder(order, p) };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, err };
        throw err;
      }
    });
    if (accepted.length === 0) return outcomes;
    for (const [projectId, tons] of taken) await takeSupply(tx, projectId, tons, now);
    await insertOrders(
      tx,
      accepted.map(({ order }) => order),
    );
    await changeUsage(
      tx,
      accepted.map(({ order }) => ({ userId: order.user_id, projectId: order.project_id, createdAt: order.created_at, tons: order.tons })),
    );
    await postManyAhead(
      tx,
      accepted.map(({ order, p }) => purchaseEntry(order, p, now)),
    );
    // One message per order to its buyer; one per project to everyone (its remaining supply moved).
    await publishAll(tx, [...accepted.flatMap(({ order }) => orderInvalidations(order.user_id, order.id)), ...[...taken.keys()].map(projectInvalidation)], now);
    return outcomes;
  },
};

// ---------------------------------------------------------------------------------------------------
// Book a pre-sale

async function validateBooking(db: DB | Tx, user: User, input: OrderInput, now: number, feeBp: number) {
  assertCanTrade(user);
  const p = await projectOf(db, input.project_id);
  if (p.presale_price === null) throw new AppError('invalid_request'); // not a pre-sale project
  if (p.status === 'in_progress' || now >= p.selling_time || now >= p.end_time) throw new AppError('project_ended');
  if (p.remaining_tons <= 0) throw new AppError('project_full');
  if (p.status === 'closed') throw new AppError('project_ended');
  if (input.tons < 1 || input.tons > p.remaining_tons) throw new AppError('presale_quantity');
  checkTons(p, input.tons);
  if (user.grade < p.required_grade) throw new AppError('grade_not_met');
  await checkLimits(db, user, p, input.tons, now);
  const fee = bookingFee(input.tons, p.presale_price, feeBp);
  await checkAvailable(db, user.id, fee);
  return { p, presalePrice: p.presale_price, fee };
}

export async function placeBooking(deps: Deps, user: User, input: OrderInput): Promise<Order> {
  const { db, clock, config } = deps;
  const recheck = async () => void (await validateBooking(db, user, input, clock.now(), config.PRESALE_FEE_BP));
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_balance', async (tx) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { p, presalePrice, fee } = await validateBooking(tx, u, input, now, config.PRESALE_FEE_BP);
    const order = await insertOrder(tx, {
      user_id: u.id,
      project_id: p.id,
      side: 'buy',
      kind: 'presale',
      status: 'applying',
      unit_price: presalePrice,
      tons: input.tons,
      total: input.tons * presalePrice,
      booking_fee: fee,
      created_at: now,
      updated_at: now,
    });
    await changeUsage(tx, [{ userId: u.id, projectId: p.id, createdAt: now, tons: input.tons }]);
    if (fee > 0) {
      await postAhead(tx, {
        kind: 'presale_booking',
        ref_type: 'order',
        ref_id: order.id,
        memo: `Booking fee of pre-sale ${order.order_no}: ${input.tons} t of ${p.name}`,
        now,
        postings: [
          { owner: u.id, account: 'available', amount: -fee },
          { owner: u.id, account: 'presale', amount: fee },
        ],
      });
    }
    await invalidateOrder(tx, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  });
}

// ---------------------------------------------------------------------------------------------------
// Final payment of an allocated pre-sale

async function validateFinalPayment(db: DB | Tx, user: User, orderId: number, now: number) {
  assertCanTrade(user);
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', user.id).executeTakeFirst();
  if (!order || order.kind !== 'presale') throw new AppError('not_found');
  if (order.status === 'final_payment_expired') throw new AppError('final_payment_expired');
  if (order.status !== 'pending_final_payment' || order.final_tons === null || order.final_unit_price === null || order.final_deadline === null) {
    throw new AppError('final_payment_failed');
  }
  if (now >= order.final_deadline) throw new AppError('final_payment_expired');
  const cost = order.final_tons * order.final_unit_price;
  const fromFee = Math.min(order.booking_fee, cost);
  const due = cost - fromFee; // what available pays
  const refund = order.booking_fee - fromFee; // a fee larger than the cost comes back
  await checkAvailable(db, user.id, due);
  return { order, cost, fromFee, due, refund };
}

export async function payFinal(deps: Deps, user: User, input: { order_id: number; password: string }): Promise<Order> {
  const { db, clock } = deps;
  const recheck = async () => void (await validateFinalPayment(db, user, input.order_id, clock.now()));
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_balance', async (tx) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { order, fromFee, due, refund } = await validateFinalPayment(tx, u, input.order_id, now);
    const p = await tx.selectFrom('projects').selectAll().where('id', '=', order.project_id).executeTakeFirstOrThrow();
    const updated = await tx
      .updateTable('orders')
      .set({ status: 'final_payment_made', cycle_end: now + cycleMs(p.cycle_value, p.cycle_unit), updated_at: now })
      .where('id', '=', order.id)
      .where('status', '=', 'pending_final_payment')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('final_payment_failed');
    const postings = [
      { owner: u.id, account: 'presale' as const, amount: -order.booking_fee },
      { owner: u.id, account: 'available' as const, amount: refund - due },
      { owner: PLATFORM, account: 'sales' as const, amount: fromFee + due },
    ].filter((x) => x.amount !== 0);
    if (postings.length > 0) {
      await postAhead(tx, { kind: 'presale_final_payment', ref_type: 'order', ref_id: order.id, memo: `Final payment of ${order.order_no}`, now, postings });
    }
    await invalidateOrder(tx, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  });
}

// ---------------------------------------------------------------------------------------------------
// Sell back to the platform

async function holdingsOf(db: DB | Tx, userId: number, projectId: number): Promise<{ purchase: number; presale: number }> {
  const rows = await db.selectFrom('credit_holdings').select(['origin', 'tons']).where('user_id', '=', userId).where('project_id', '=', projectId).execute();
  const out = { purchase: 0, presale: 0 };
  for (const r of rows) out[r.origin] += r.tons;
  return out;
}

async function validateSale(db: DB | Tx, user: User, input: OrderInput, config: Config) {
  assertCanTrade(user);
  if (user.grade < config.SELL_MIN_GRADE) throw new AppError('sell_not_eligible');
  if (input.tons < 1) throw new AppError('invalid_number');
  const p = await projectOf(db, input.project_id);
  const held = await holdingsOf(db, user.id, p.id);
  if (held.purchase + held.presale < input.tons) throw new AppError('insufficient_credits');
  // Credits of pre-sale origin are sold last, and only by P3 (ambassador) and above.
  const fromPurchase = Math.min(held.purchase, input.tons);
  const fromPresale = input.tons - fromPurchase;
  if (fromPresale > 0 && user.grade < config.PRESALE_SELL_MIN_GRADE) throw new AppError('sell_not_eligible');
  const price = buybackPrice(p.price, p.yield_bp);
  return { p, price, proceeds: price * input.tons, fromPurchase, fromPresale };
}


export async function placeSale(deps: Deps, user: User, input: OrderInput): Promise<Order> {
  const { db, clock, config } = deps;
  const recheck = async () => void (await validateSale(db, user, input, config));
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_credits', async (tx) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { p, price, proceeds, fromPurchase, fromPresale } = await validateSale(tx, u, input, config);
    if (!(await takeHolding(tx, u.id, p.id, 'purchase', fromPurchase, now)) || !(await takeHolding(tx, u.id, p.id, 'presale', fromPresale, now))) {
      throw new AppError('insufficient_credits');
    }
    const order = await insertOrder(tx, {
      user_id: u.id,
      project_id: p.id,
      side: 'sell',
      kind: 'sell',
      status: 'in_progress', // until the proceeds settle into available
      unit_price: price,
      tons: input.tons,
      total: proceeds,
      presale_tons: fromPresale,
      settle_at: settlementTime(now, config.SETTLEMENT_WORKING_DAYS, config.PUBLIC_HOLIDAYS),
      created_at: now,
      updated_at: now,
    });
    await postAhead(tx, {
      kind: 'credit_sell',
      ref_type: 'order',
      ref_id: order.id,
      memo: `Sold ${input.tons} t of ${p.name} back at ${price} cents/t (${order.order_no})`,
      now,
      postings: [
        { owner: u.id, account: 'credits', amount: -input.tons },
        { owner: PLATFORM, account: 'registry', amount: input.tons },
        { owner: PLATFORM, account: 'sales', amount: -proceeds },
        { owner: u.id, account: 'unavailable', amount: proceeds },
      ],
    });
    await invalidateOrder(tx, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  });
}

// ---------------------------------------------------------------------------------------------------
// Reads

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

export async function creditsOf(db: DB, user: User, config: Config, q: { page: number; page_size: number }): Promise<OrderCredits> {
  const wallet = await walletOf(db, user.id);
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

  const logs = db
    .selectFrom('fund_logs as f')
    .leftJoin('orders as o', (j) => j.onRef('o.id', '=', 'f.ref_id').on('f.ref_type', '=', 'order'))
    .leftJoin('projects as p', 'p.id', 'o.project_id')
    .where('f.owner_id', '=', user.id)
    .where('f.account_name', '=', 'credits');
  const movements = await pageOf(
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
  return {
    balance: wallet.credits,
    holdings: [...byProject.values()].filter((h) => h.tons > 0),
    ...movements,
  };
}

/** The caller's own limits on a project (for the project detail and buy screens). */
export async function limitsOf(db: DB, user: User, projectId: number, now: number): Promise<OrderLimits> {
  const p = await projectOf(db, projectId);
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
