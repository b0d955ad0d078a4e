import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// The order path: a buyer's tons of a project, kept as they change rather than summed from every order at
// each buy. Summing the user's buy orders of the project for the monthly and total limits
// (`orders_used_tons`) reads the covering index alone on SQLite, but one table row per earlier order on
// PostgreSQL (an index-only read there needs the visibility map, which only VACUUM sets), so a buy would
// cost more the more its buyer had bought. order_usage holds, per user, project and Singapore month of the
// orders' creation, the tons that count towards the limits (buy orders not expired; a pre-sale its final tons
// once allocated), changed in the same write transaction as the orders (modules/order/usage.ts). Filled here
// from the orders.

const PAGE = 10_000;

const SGT_OFFSET_MS = 8 * 3_600_000; // Singapore keeps UTC+8 all year

/** Epoch ms of 00:00 SGT on the first day of the Singapore month of `ms`. A copy kept with this migration,
 *  not imported from the order module: the rows it fills must stay what they were when it ran, whatever
 *  today's code counts as a month (docs/decisions/0022-module-shape.md). */
function sgtMonthStart(ms: number): number {
  const d = new Date(ms + SGT_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - SGT_OFFSET_MS;
}

interface UsageDb {
  orders: { id: number; user_id: number; project_id: number; side: string; status: string; kind: string; tons: number; final_tons: number | null; created_at: number };
  order_usage: { user_id: number; project_id: number; month_start: number; tons: number };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('order_usage')
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('month_start', INT, (c) => c.notNull())
    .addColumn('tons', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('order_usage_pkey', ['user_id', 'project_id', 'month_start'])
    .execute();
  const d = db as unknown as Kysely<UsageDb>;
  const usage = new Map<string, { user_id: number; project_id: number; month_start: number; tons: number }>();
  for (let after = 0; ; ) {
    const rows = await d
      .selectFrom('orders')
      .select(['id', 'user_id', 'project_id', 'kind', 'tons', 'final_tons', 'created_at'])
      .where('side', '=', 'buy')
      .where('status', '!=', 'final_payment_expired')
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const o of rows) {
      const month = sgtMonthStart(Number(o.created_at));
      const key = `${o.user_id}\n${o.project_id}\n${month}`;
      const counted = o.kind === 'presale' ? Number(o.final_tons ?? o.tons) : Number(o.tons);
      const u = usage.get(key) ?? { user_id: Number(o.user_id), project_id: Number(o.project_id), month_start: month, tons: 0 };
      u.tons += counted;
      usage.set(key, u);
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.id);
  }
  const all = [...usage.values()];
  for (let i = 0; i < all.length; i += 500) await d.insertInto('order_usage').values(all.slice(i, i + 500)).execute();
  // The sum it replaces was the index's main reader; every order paid for its upkeep. Its other reader, a
  // retirement's check of the user's sales pending settlement (retire/service.ts pendingSaleQuery), gets an
  // index of only those orders: without it SQLite reads every order of the project in progress (each buy in its
  // cycle) and PostgreSQL every order of the user, inside the write transaction. A buy writes no entry into it.
  await db.schema.dropIndex('orders_used_tons').execute();
  await db.schema
    .createIndex('orders_selling')
    .on('orders')
    .columns(['user_id', 'project_id'])
    .where(sql<boolean>`side = 'sell' and status = 'in_progress'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_selling').execute();
  await db.schema
    .createIndex('orders_used_tons')
    .on('orders')
    .columns(['user_id', 'project_id', 'side', 'status', 'created_at', 'kind', 'tons', 'final_tons'])
    .execute();
  await sql`drop table order_usage`.execute(db);
}
