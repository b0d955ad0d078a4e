import { sql } from 'kysely';
import { dialectOf, type DB } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { Tx, WriteScope } from '../../db/tx';
import { sgtMonthStart } from './calc';

// A buyer's tons of a project that count towards its limits (order_usage, migration 018): buy orders not
// expired, a pre-sale its final tons once allocated, per Singapore month of the order's creation. Every
// change of what an order counts changes its row here in the same write transaction: a buy or a booking
// adds its tons, an allocation the difference between final and booked tons, an expiry takes the order's
// tons away. The limit checks read two rows' worth instead of every order the buyer placed.

export interface UsageChange {
  userId: number;
  projectId: number;
  /** The order's created_at: its tons count in that month. */
  createdAt: number;
  /** Signed: + adds, - takes away. */
  tons: number;
}

const addOne = prepared((db, p: { userId: number; projectId: number; monthStart: number; tons: number }) =>
  db
    .insertInto('order_usage')
    .values({ user_id: p.userId, project_id: p.projectId, month_start: p.monthStart, tons: p.tons })
    .onConflict((oc) => oc.columns(['user_id', 'project_id', 'month_start']).doUpdateSet((eb) => ({ tons: eb('order_usage.tons', '+', eb.ref('excluded.tons')) }))),
);

/** PostgreSQL: many rows' changes in one statement (each key once: the caller sums them). */
const addMany = prepared((db, p: { rows: string }) => ({
  compile: () =>
    sql`insert into order_usage (user_id, project_id, month_start, tons)
      select user_id, project_id, month_start, tons from json_to_recordset(${p.rows}::json) as x(user_id bigint, project_id bigint, month_start bigint, tons bigint)
      on conflict (user_id, project_id, month_start) do update set tons = order_usage.tons + excluded.tons`.compile(db),
}));

/** Applies `changes` (sent ahead through `w`: db/tx.ts WriteScope), summed per user, project and month. */
export async function changeUsage(w: WriteScope, changes: readonly UsageChange[]): Promise<void> {
  const sums = new Map<string, { user_id: number; project_id: number; month_start: number; tons: number }>();
  for (const c of changes) {
    const month = sgtMonthStart(c.createdAt);
    const key = `${c.userId}\n${c.projectId}\n${month}`;
    const row = sums.get(key) ?? { user_id: c.userId, project_id: c.projectId, month_start: month, tons: 0 };
    row.tons += c.tons;
    sums.set(key, row);
  }
  const rows = [...sums.values()].filter((r) => r.tons !== 0);
  const tx = w.tx;
  if (rows.length > 1 && dialectOf(tx) === 'postgres') {
    await w.ahead(addMany.compile(tx, { rows: JSON.stringify(rows) }));
    return;
  }
  for (const r of rows) await w.ahead(addOne.compile(tx, { userId: r.user_id, projectId: r.project_id, monthStart: r.month_start, tons: r.tons }));
}

/** The counted tons of a buyer's project since `since` (a month's start) when given, else in all. */
export function usedTonsQuery(db: DB | Tx, userId: number, projectId: number, since?: number) {
  let q = db
    .selectFrom('order_usage')
    .select(sql<number>`coalesce(sum(tons), 0)`.as('n'))
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId);
  if (since !== undefined) q = q.where('month_start', '>=', since);
  return q;
}

/** Where order_usage differs from the orders themselves (empty when it holds): every buyer, project and
 *  month whose counted tons, summed from the orders, are not its row's (the test suites run it; reads every buy order). */
export async function orderUsageProblems(db: DB | Tx): Promise<string[]> {
  const orders = await db
    .selectFrom('orders')
    .select(['user_id', 'project_id', 'kind', 'tons', 'final_tons', 'created_at'])
    .where('side', '=', 'buy')
    .where('status', '!=', 'final_payment_expired')
    .execute();
  const expected = new Map<string, number>();
  for (const o of orders) {
    const key = `${o.user_id}/${o.project_id}/${sgtMonthStart(o.created_at)}`;
    expected.set(key, (expected.get(key) ?? 0) + (o.kind === 'presale' ? (o.final_tons ?? o.tons) : o.tons));
  }
  const kept = new Map((await db.selectFrom('order_usage').selectAll().execute()).map((r) => [`${r.user_id}/${r.project_id}/${r.month_start}`, Number(r.tons)]));
  const problems: string[] = [];
  for (const key of new Set([...expected.keys(), ...kept.keys()])) {
    const want = expected.get(key) ?? 0;
    const have = kept.get(key) ?? 0;
    if (want !== have) problems.push(`user/project/month ${key}: orders count ${want} t, order_usage ${have} t`);
  }
  return problems;
}
