// Order placement benchmark: `npm run bench:orders` (`npx tsx bench/orders.ts`).
// For each scenario and target, starts the real server as child processes on loopback (temporary DATA_DIR)
// with ARGON2_MEMORY_KIB / ARGON2_TIME_COST set to the scenario's hash, makes users (payment passwords
// hashed with those same parameters, so no order pays for a rehash) and a project directly in its
// database, then POSTs /h5/api/api/order/buy over HTTP at a few concurrency levels, each bounded in count
// and time. Targets: SQLite (one instance), PostgreSQL with one instance and with two instances (the
// bench's workers split evenly across both), on a database the bench creates and drops
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, database canopy_bench_orders).
// After each scenario it asserts: no oversell (remaining_tons = total - tons of orders, one order per
// success) and every balance equal to the sum of its fund logs, each unit's ledger summing to zero.
// BENCH_TARGETS=sqlite,pg1,pg2 and BENCH_SCENARIOS=no-password,engine,production pick what runs;
// BENCH_BEFORE_ROOT=<another checkout> runs each target with that checkout's server first ("before"), then
// with this one, in the same run (the machine's load changes: compare within one run). Scenarios:
//   engine      argon2id m=256 KiB, t=1: the figure is the order engine itself (HTTP, session,
//               idempotency key, BEGIN IMMEDIATE transaction, ledger, fsync);
//   production  argon2id at OWASP's parameters (m=19 MiB, t=2, p=1), the server's default, with the
//               default hash lanes (HASH_CONCURRENCY_USER=2).
// Prints a table and writes bench/results/orders.json; exits 1 if a check fails.
import http from 'node:http';
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { hashPassword, OWASP_ARGON2, type Argon2Params } from '../src/server/lib/crypto';
import { checkLedger } from '../src/server/ledger/ledger';
import { PATHS } from '../src/shared/api';
import { argon2Env, countBy, cpuMs, type BenchServer, createProject, createUsers, ENGINE_ARGON2, latency, machine, outcome, postJson, freshPgDatabase, round, startServer, writeResult, type Reply } from './harness';

const PASSWORD = 'Bench#Orders2026';
const USERS = 64;
const REQUEST_TIMEOUT_MS = 30_000;

interface Level {
  concurrency: number;
  maxOrders: number;
  maxSeconds: number;
}
const SCENARIOS: { name: string; argon2: Argon2Params; env?: Record<string, string>; levels: Level[] }[] = [
  {
    // The orders/s figure of bench/README.md: the order engine with the payment-password check switched off (bench-only setting).
    name: 'no-password',
    argon2: ENGINE_ARGON2,
    env: { NODE_ENV: 'benchmark', BENCH_SKIP_PAYMENT_PASSWORD: 'true' },
    levels: [
      { concurrency: 1, maxOrders: 300, maxSeconds: 10 },
      { concurrency: 16, maxOrders: 3000, maxSeconds: 10 },
      { concurrency: 64, maxOrders: 4000, maxSeconds: 10 },
    ],
  },
  {
    name: 'engine',
    argon2: ENGINE_ARGON2,
    levels: [
      { concurrency: 1, maxOrders: 200, maxSeconds: 15 },
      { concurrency: 8, maxOrders: 400, maxSeconds: 15 },
      { concurrency: 32, maxOrders: 600, maxSeconds: 15 },
      { concurrency: 64, maxOrders: 600, maxSeconds: 15 },
    ],
  },
  {
    name: 'production',
    argon2: OWASP_ARGON2,
    levels: [
      { concurrency: 1, maxOrders: 100, maxSeconds: 15 },
      { concurrency: 8, maxOrders: 200, maxSeconds: 15 },
      { concurrency: 32, maxOrders: 300, maxSeconds: 20 },
    ],
  },
];

/** Where the scenario runs: the database and how many server instances share it. */
interface Target {
  name: string;
  label: string;
  database: 'sqlite' | 'postgres';
  instances: number;
}
const TARGETS: Target[] = [
  { name: 'sqlite', label: 'SQLite, 1 instance', database: 'sqlite', instances: 1 },
  { name: 'pg1', label: 'PostgreSQL, 1 instance', database: 'postgres', instances: 1 },
  { name: 'pg2', label: 'PostgreSQL, 2 instances', database: 'postgres', instances: 2 },
];
const PG_DATABASE = 'canopy_bench_orders';
const TOTAL_TONS = 10_000_000;

/** CPU used so far by the servers, and by each PostgreSQL backend connected to the bench database. */
async function cpuReadings(servers: BenchServer[], db: BenchServer['db'], database: Target['database']) {
  const server = servers.reduce((sum, s) => sum + cpuMs(s.pid), 0);
  const backends = new Map<number, number>();
  if (database === 'postgres') {
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
    for (const { pid } of rows) backends.set(Number(pid), cpuMs(Number(pid)));
  }
  return { server, backends };
}

/** CPU the backends used between two readings (a backend that started in between counts from zero). */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** No oversell and a consistent ledger: the bench's assertions after a scenario. */
async function check(db: BenchServer['db'], projectId: number, okOrders: number, unanswered: number): Promise<Record<string, boolean>> {
  const project = await db.selectFrom('projects').select(['remaining_tons', 'total_tons']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const orders = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('tons'), eb.lit(0)).as('tons')])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  const ledger = await checkLedger(db);
  return {
    'remaining_tons = total - tons of orders (no oversell)': project.remaining_tons === project.total_tons - Number(orders.tons) && project.remaining_tons >= 0,
    // A request the bench gave up on (30 s) may still have committed: at most one order each.
    'one order per success (+ at most one per request not answered in time)': Number(orders.n) >= okOrders && Number(orders.n) <= okOrders + unanswered,
    'every balance = sum of its fund logs, each unit sums to 0': ledger.ok,
  };
}

async function main() {
  const results: Record<string, unknown>[] = [];
  const checks: Record<string, boolean> = {};
  const only = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
  const targets = (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean);
  const beforeRoot = process.env.BENCH_BEFORE_ROOT;
  const builds = beforeRoot ? [{ build: 'before', root: beforeRoot }, { build: 'after', root: undefined }] : [{ build: 'this', root: undefined }];
  for (const target of TARGETS.filter((t) => targets.length === 0 || targets.includes(t.name))) {
    for (const { build, root } of builds) for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.name))) {
      const pgDb = target.database === 'postgres' ? await freshPgDatabase(PG_DATABASE) : undefined;
      const servers: BenchServer[] = [];
      const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
      try {
        // Instances one after the other: the first migrates the database. Several share one secret (idempotency fingerprints).
        const env = { ...argon2Env(scenario.argon2), ...scenario.env, SECRET_KEY: 'bench-orders-secret-key-0123456789abcdef' };
        for (let i = 0; i < target.instances; i++) servers.push(await startServer(`orders-${scenario.name}-${i}`, env, { databaseUrl: pgDb?.url, root }));
        const db = servers[0]!.db;
        const hash = await hashPassword(PASSWORD, scenario.argon2);
        const projectId = await createProject(db, `Bench ${scenario.name}`, TOTAL_TONS);
        const users = await createUsers(db, { prefix: scenario.name.slice(0, 3), count: USERS, loginHash: hash, tradeHash: hash, cents: 100_000_000 });
        let okTotal = 0;
        let unanswered = 0;

        for (const level of scenario.levels) {
          const replies: Reply[] = [];
          let next = 0;
          const deadline = performance.now() + level.maxSeconds * 1000;
          const started = performance.now();
          const cpu0 = await cpuReadings(servers, db, target.database);
          const worker = async (w: number) => {
            // Worker w sends to instance w mod instances: the load is split evenly.
            const url = servers[w % servers.length]!.url;
            while (next < level.maxOrders && performance.now() < deadline) {
              const i = next++;
              const reply = await postJson(
                agent, url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD },
                { Authorization: users[(w + i) % users.length]!.token, 'Idempotency-Key': `bench_${scenario.name}_${level.concurrency}_${i}_${w}` },
                REQUEST_TIMEOUT_MS,
              );
              replies.push(reply);
            }
          };
          await Promise.all(Array.from({ length: level.concurrency }, (_, w) => worker(w)));
          const seconds = (performance.now() - started) / 1000;
          const cpu1 = await cpuReadings(servers, db, target.database);
          const okCount = replies.filter((r) => r.status === 200 && r.code === 0).length;
          okTotal += okCount;
          unanswered += replies.filter((r) => r.status === 0).length;
          const lat = latency(replies.map((r) => r.ms));
          const row = {
            target: target.name,
            target_label: target.label,
            build,
            scenario: scenario.name,
            argon2: scenario.argon2,
            concurrency: level.concurrency,
            orders: replies.length,
            ok: okCount,
            outcomes: countBy(replies, outcome),
            seconds: Number(seconds.toFixed(2)),
            orders_per_s: Number((okCount / seconds).toFixed(1)),
            p50_ms: lat.p50_ms,
            p95_ms: lat.p95_ms,
            p99_ms: lat.p99_ms,
            // CPU time per order: what the server processes and (PostgreSQL) the database's backends for the
            // bench database used, over the orders answered. Unlike orders/s, it holds on a shared machine.
            server_cpu_ms_per_order: okCount ? round((cpu1.server - cpu0.server) / okCount, 2) : null,
            db_cpu_ms_per_order: okCount && target.database === 'postgres' ? round(cpuDelta(cpu0.backends, cpu1.backends) / okCount, 2) : null,
          };
          results.push(row);
          console.log(JSON.stringify(row));
        }
        for (const [name, ok] of Object.entries(await check(db, projectId, okTotal, unanswered))) {
          checks[`${target.name}/${build}/${scenario.name}: ${name}`] = ok;
          console.log(`${ok ? 'PASS' : 'FAIL'} ${target.name}/${build}/${scenario.name}: ${name}`);
        }
      } finally {
        agent.destroy();
        for (const s of servers) await s.stop();
        await pgDb?.drop();
      }
    }
  }

  const table = [
    '| target | build | scenario | argon2id m / t | concurrency | orders | ok | orders/s | p50 ms | p95 ms | p99 ms | server CPU ms/order | PostgreSQL CPU ms/order |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const a = r.argon2 as Argon2Params;
      return `| ${String(r.target_label)} | ${String(r.build)} | ${String(r.scenario)} | ${a.memoryKiB} KiB / ${a.timeCost} | ${String(r.concurrency)} | ${String(r.orders)} | ${String(r.ok)} | ${String(r.orders_per_s)} | ${String(r.p50_ms)} | ${String(r.p95_ms)} | ${String(r.p99_ms)} | ${String(r.server_cpu_ms_per_order ?? '-')} | ${String(r.db_cpu_ms_per_order ?? '-')} |`;
    }),
  ].join('\n');
  console.log(`\n${table}\n`);
  const failed = Object.values(checks).some((ok) => !ok);
  writeResult(process.env.BENCH_RESULT ?? 'orders.json', {
    measured_at: new Date().toISOString(),
    machine: machine(),
    method:
      'Server child processes on 127.0.0.1, temp DATA_DIR; SQLite (WAL, synchronous=FULL) or PostgreSQL 15 on loopback (synchronous_commit on, a database created and dropped by the bench) ' +
      'with 1 or 2 instances (workers split evenly across them, one SECRET_KEY); ARGON2_MEMORY_KIB/ARGON2_TIME_COST set to the ' +
      "scenario's hash and the users' payment-password hashes made with the same parameters (no rehash); default hash lanes; " +
      'POST /h5/api/api/order/buy 1 t each, 64 users, a new Idempotency-Key per order; workers = concurrency, bounded by orders and seconds per level, each request by 30 s. ' +
      'Checked after each scenario: no oversell, one order per success, every balance = sum of its fund logs.',
    before_root: beforeRoot ?? null,
    checks,
    all_checks_passed: !failed,
    results,
  });
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
