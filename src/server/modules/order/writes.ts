import { sql, type Insertable } from 'kysely';
import { dialectOf } from '../../db/connection';
import type { DB } from '../../db/connection';
import { isCheck } from '../../db/errors';
import { prepared } from '../../db/prepared';
import type { OrdersTable } from '../../db/schema';
import { writeTx, writeTxBatched, type Batcher, type EffectRecord, type Tx, type WriteScope } from '../../db/tx';
import { AppError } from '../../lib/http';
import type { ErrorKey } from '../../../shared/errors';
import { orderNumber } from './calc';
import type { OrderRow } from './repo';

// What every order use case writes with: its write transaction, the order's row and the project's supply.
// Every order write (docs/product.md#buying, docs/product.md#pre-sale, docs/product.md#selling-back): the
// caller is a signed-in user; its checks run first so a refusal that needs no password costs no password
// attempt; the payment password (argon2id, in a bounded hash lane: lib/hash-work.ts) is verified outside the
// transaction, so the hash never holds the single writer; then ONE write transaction (db/tx.ts writeTx: one
// writer at a time, concurrent orders sharing a commit) reads the facts again, checks them again and writes.

/** Runs a use case's write transaction (in a batch with the writes waiting with it when `batch` is given;
 *  the request's effect when given its idempotency `record`, see db/tx.ts writeTx).
 *  Database CHECKs are the last line: a CHECK failure maps to the matching catalogue refusal, never a 500. */
export async function orderTx<T, I>(
  db: DB,
  onNegativeBalance: ErrorKey,
  fn: (tx: Tx, w: WriteScope) => Promise<T>,
  { record, batch }: { record?: EffectRecord | undefined; batch?: { batcher: Batcher<I, T>; input: I } } = {},
): Promise<T> {
  try {
    return await (batch ? writeTxBatched(db, batch.batcher, batch.input, fn, record) : writeTx(db, fn, record));
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Selling past the supply, or past what the project holds on its registry (migration 041's trigger).
    if (isCheck(err, 'projects_remaining') || isCheck(err, 'projects_held')) throw new AppError('insufficient_remaining');
    if (isCheck(err, 'ledger_accounts_not_negative')) throw new AppError(onNegativeBalance);
    if (isCheck(err, 'credit_holdings_tons_check', 'tons >= 0')) throw new AppError('insufficient_credits');
    throw err;
  }
}

export async function insertOrder(w: WriteScope, values: Omit<Insertable<OrdersTable>, 'id' | 'order_no'>, nextId?: number): Promise<OrderRow> {
  const tx = w.tx;
  // Inside the write transaction nobody else writes, so max(id) + 1 is this row's id and the number is
  // final (`nextId`: max(id) + 1 already read in this transaction).
  const id = nextId ?? Number((await tx.selectFrom('orders').select(sql<number>`coalesce(max(id), 0) + 1`.as('next')).executeTakeFirstOrThrow()).next);
  // Every column is written as this row says (no default of the table fills one in), so the row is what
  // the database holds and nothing needs to be read back: on PostgreSQL the job does not wait for the
  // insert's round trip (db/tx.ts WriteScope); what the job reads after it sees it.
  const row = orderRow(values, id);
  await w.ahead(orderInsert.compile(tx, row));
  return row;
}

/** Orders of a batch (purchases), as insertOrder writes them one by one: on PostgreSQL one statement for
 *  all, sent ahead. */
export async function insertOrders(w: WriteScope, rows: readonly OrderRow[]): Promise<void> {
  if (dialectOf(w.tx) !== 'postgres') {
    for (const row of rows) await w.ahead(orderInsert.compile(w.tx, row));
    return;
  }
  await w.ahead(ordersInsert.compile(w.tx, { rows: JSON.stringify(rows) }));
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
export function orderRow(values: Omit<Insertable<OrdersTable>, 'id' | 'order_no'>, id: number): OrderRow {
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
 *  on PostgreSQL the job does not wait for its round trip (db/tx.ts WriteScope). */
export async function takeSupply(w: WriteScope, projectId: number, tons: number, now: number): Promise<void> {
  await w.ahead(supplyTaken.compile(w.tx, { projectId, tons, now }));
}

const supplyTaken = prepared((db, p: { projectId: number; tons: number; now: number }) =>
  db
    .updateTable('projects')
    .set((eb) => ({ remaining_tons: eb('remaining_tons', '-', p.tons), updated_at: p.now }))
    .where('id', '=', p.projectId),
);
