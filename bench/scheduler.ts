// Scheduler tick benchmark: `npm run bench:scheduler` (npx tsx bench/scheduler.ts).
// For SQLite (a temporary file) and PostgreSQL (a schema of its own in the test database, dropped after):
// migrates, writes 20,000 live projects (half in progress, half in pre-sale, none due), 5,000 closed ones and
// 40,000 buy orders in progress whose cycles end later, analyses, then times the scheduler's whole tick
// (runDueWork: due projects, cycle completions, final-payment expiries, sale settlements) ROUNDS times in this
// process with nothing due, then once with 100 projects and 100 orders due (the tick that does the work).
// Beside it, in the same run on the same data, the due-projects query the scheduler used before migration 008
// (a three-way OR of status and times, which walks every live project), so before and after are one run.
// Prints a table and writes bench/results/scheduler.json. BENCH_DBS=sqlite runs one database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import { openDatabase, type DB } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import type { OrdersTable, ProjectsTable } from '../src/server/db/schema';
import { loadConfig } from '../src/server/config';
import type { Deps } from '../src/server/env';
import { systemClock } from '../src/server/lib/clock';
import { createLogger } from '../src/server/lib/log';
import { runDueWork } from '../src/server/scheduler/scheduler';
import { createUsers, latency, machine, round, writeResult } from './harness';
import { benchProject, PG_URL, type DbKind } from './list-bench';

const LIVE = 20_000;
const CLOSED = 5_000;
const ORDERS = 40_000;
const DUE = 100;
const ROUNDS = 50;
const DAY = 86_400_000;
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',').filter(Boolean) as DbKind[];

interface Opened {
  db: DB;
  close(): Promise<void>;
}

async function open(kind: DbKind): Promise<Opened> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-scheduler-'));
    const { db } = openDatabase(path.join(dir, 'canopy.db'));
    return { db, close: async () => { await db.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
  }
  const schema = `bench_scheduler_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const { db } = openDatabase(url.toString(), { poolSize: 4 });
  return {
    db,
    close: async () => {
      await db.destroy();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}

async function seed(db: DB, now: number): Promise<number> {
  const projects: Insertable<ProjectsTable>[] = [];
  for (let i = 0; i < LIVE + CLOSED; i++) {
    const p = benchProject(i, LIVE + CLOSED, now);
    const spread = (1 + (i % 300)) * DAY;
    if (i < LIVE && i % 2 === 0) Object.assign(p, { status: 'in_progress', selling_time: now - spread, end_time: now + spread, presale_price: null });
    else if (i < LIVE) Object.assign(p, { status: 'presale', selling_time: now + spread, end_time: now + 2 * spread, presale_price: 1200 });
    else Object.assign(p, { status: 'closed', selling_time: now - 400 * DAY, end_time: now - 100 * DAY, presale_price: null });
    p.remaining_tons = Math.max(1, Number(p.remaining_tons));
    projects.push(p);
  }
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < projects.length; i += 500) await tx.insertInto('projects').values(projects.slice(i, i + 500)).execute();
  });
  const [user] = await createUsers(db, { prefix: 'sched', count: 1, loginHash: 'x', tradeHash: null, cents: 0 });
  const firstId = Number((await db.selectFrom('projects').select((eb) => eb.fn.min('id').as('m')).executeTakeFirstOrThrow()).m);
  const orders: Insertable<OrdersTable>[] = [];
  for (let i = 0; i < ORDERS; i++) {
    orders.push({
      order_no: `B${String(i).padStart(10, '0')}`, user_id: user!.id, project_id: firstId + ((i * 2) % LIVE), side: 'buy', kind: 'purchase',
      status: 'in_progress', unit_price: 100, tons: 1, total: 100, final_unit_price: null, final_tons: null, final_amount: null,
      final_deadline: null, cycle_end: now + (1 + (i % 30)) * DAY, settle_at: null, settled_at: null, completed_at: null, created_at: now, updated_at: now,
    });
  }
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < orders.length; i += 500) await tx.insertInto('orders').values(orders.slice(i, i + 500)).execute();
  });
  return firstId;
}

/** The due-projects query of the scheduler before migration 008. */
const oldDueQuery = (db: DB, now: number) =>
  db
    .selectFrom('projects')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['presale', 'in_progress']), eb('end_time', '<=', now)]),
        eb.and([eb('status', '=', 'in_progress'), eb('remaining_tons', '<=', 0)]),
        eb.and([eb('status', '=', 'presale'), eb('selling_time', '<=', now)]),
      ]),
    );
const newDueQuery = (db: DB, now: number) => db.selectFrom('projects').select('id').where('due_at', '<=', now).orderBy('due_at');

async function plan(kind: DbKind, db: DB, q: ReturnType<typeof newDueQuery> | ReturnType<typeof oldDueQuery>): Promise<string> {
  const c = q.compile();
  const explain = kind === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await db.executeQuery<Record<string, unknown>>({ ...c, sql: explain + c.sql });
  return rows.map((r) => String(r.detail ?? r['QUERY PLAN'] ?? JSON.stringify(r))).join(' / ');
}

async function timed(n: number, f: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function benchDb(kind: DbKind) {
  const opened = await open(kind);
  const { db } = opened;
  try {
    await migrateToLatest(db);
    const now = Date.now();
    const t0 = performance.now();
    const firstId = await seed(db, now);
    const seedS = (performance.now() - t0) / 1000;
    if (kind === 'postgres') await sql`vacuum analyze`.execute(db);
    else await sql`analyze`.execute(db);
    const config = loadConfig({ ...process.env, DATABASE_URL: undefined, LOG_LEVEL: 'error' });
    const deps = { config, db, clock: systemClock, log: createLogger('error') } as unknown as Deps;

    await runDueWork(deps); // warm-up
    const idle = latency(await timed(ROUNDS, () => runDueWork(deps)));
    const oldQuery = latency(await timed(ROUNDS, () => oldDueQuery(db, now).execute()));
    const newQuery = latency(await timed(ROUNDS, () => newDueQuery(db, now).execute()));
    const plans = { before: await plan(kind, db, oldDueQuery(db, now)), after: await plan(kind, db, newDueQuery(db, now)) };

    // Due work: DUE pre-sales whose selling time has passed and DUE order cycles that ended.
    const dueIds = Array.from({ length: DUE }, (_, k) => firstId + 1 + 2 * k); // odd offsets: pre-sales
    await db.updateTable('projects').set({ selling_time: now - DAY }).where('id', 'in', dueIds).execute();
    await db.updateTable('orders').set({ cycle_end: now - 1000 }).where('id', 'in', db.selectFrom('orders').select('id').orderBy('id').limit(DUE)).execute();
    const w0 = performance.now();
    const report = await runDueWork(deps);
    const workMs = performance.now() - w0;
    const after = latency(await timed(ROUNDS, () => runDueWork(deps)));
    const opened2 = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', dueIds).where('status', '=', 'in_progress').executeTakeFirstOrThrow();
    return {
      db: kind,
      live_projects: LIVE,
      closed_projects: CLOSED,
      orders_in_progress: ORDERS,
      seed_s: round(seedS, 1),
      tick_idle: idle,
      due_query_before_008: oldQuery,
      due_query_after_008: newQuery,
      plans,
      tick_with_work: { ms: round(workMs), report, opened: Number(opened2.n) },
      tick_idle_after_work: after,
    };
  } finally {
    await opened.close();
  }
}

async function main() {
  const results = [];
  for (const kind of DBS) {
    const r = await benchDb(kind);
    console.log(JSON.stringify(r));
    results.push(r);
  }
  const table = [
    '| db | live projects | tick, nothing due p50 / p99 ms | due-projects query before 008 p50 / p99 ms | after 008 p50 / p99 ms | tick moving 100 projects + 100 orders ms |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.db} | ${r.live_projects.toLocaleString('en')} | ${r.tick_idle.p50_ms} / ${r.tick_idle.p99_ms} | ${r.due_query_before_008.p50_ms} / ${r.due_query_before_008.p99_ms} | ${r.due_query_after_008.p50_ms} / ${r.due_query_after_008.p99_ms} | ${r.tick_with_work.ms} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  writeResult('scheduler.json', {
    measured_at: new Date().toISOString(),
    machine: machine(),
    method:
      `In-process runDueWork on a migrated database (SQLite file, WAL; PostgreSQL schema in the local test database) with ${LIVE} live projects ` +
      `(half in progress, half pre-sale, none due), ${CLOSED} closed, ${ORDERS} buy orders in progress not due, analysed; ${ROUNDS} sequential ticks ` +
      `with nothing due, the old and the new due-projects query ${ROUNDS} times each on the same data, then one tick with ${DUE} pre-sales and ${DUE} cycles due.`,
    results,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
