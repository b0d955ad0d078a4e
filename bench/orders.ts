// Order placement benchmark: `npx tsx bench/orders.ts`.
// For each scenario, starts the real server as a child process on a temporary DATA_DIR (loopback only)
// with ARGON2_MEMORY_KIB / ARGON2_TIME_COST set to the scenario's hash, makes users (payment passwords
// hashed with those same parameters, so no order pays for a rehash) and a project directly in its SQLite
// file, then POSTs /h5/api/api/order/buy over HTTP at a few concurrency levels, each bounded in count and
// time. Two scenarios:
//   engine      argon2id m=256 KiB, t=1: the figure is the order engine itself (HTTP, session,
//               idempotency key, BEGIN IMMEDIATE transaction, ledger, fsync);
//   production  argon2id at OWASP's parameters (m=19 MiB, t=2, p=1), the server's default, with the
//               default hash lanes (HASH_CONCURRENCY_USER=2).
// Prints a table and writes bench/results/orders-latest.json.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { hashPassword, OWASP_ARGON2, type Argon2Params } from '../src/server/lib/crypto';
import { PATHS } from '../src/shared/api';
import { argon2Env, countBy, createProject, createUsers, ENGINE_ARGON2, latency, machine, outcome, postJson, startServer, writeResult, type Reply } from './harness';

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
    // issue 10's figure: the order engine with the payment-password check switched off (bench-only setting).
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

async function main() {
  const results: Record<string, unknown>[] = [];
  // BENCH_SCENARIOS=no-password,engine runs only those.
  const only = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
  for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.name))) {
    const server = await startServer(`orders-${scenario.name}`, { ...argon2Env(scenario.argon2), ...scenario.env });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
    try {
      const hash = await hashPassword(PASSWORD, scenario.argon2);
      const projectId = await createProject(server.db, `Bench ${scenario.name}`, 10_000_000);
      const users = await createUsers(server.db, { prefix: scenario.name.slice(0, 3), count: USERS, loginHash: hash, tradeHash: hash, cents: 100_000_000 });

      for (const level of scenario.levels) {
        const replies: Reply[] = [];
        let next = 0;
        const deadline = performance.now() + level.maxSeconds * 1000;
        const started = performance.now();
        const worker = async (w: number) => {
          while (next < level.maxOrders && performance.now() < deadline) {
            const i = next++;
            const reply = await postJson(
              agent, server.url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD },
              { Authorization: users[(w + i) % users.length]!.token, 'Idempotency-Key': `bench_${scenario.name}_${level.concurrency}_${i}_${w}` },
              REQUEST_TIMEOUT_MS,
            );
            replies.push(reply);
          }
        };
        await Promise.all(Array.from({ length: level.concurrency }, (_, w) => worker(w)));
        const seconds = (performance.now() - started) / 1000;
        const okCount = replies.filter((r) => r.status === 200 && r.code === 0).length;
        const lat = latency(replies.map((r) => r.ms));
        const row = {
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
        };
        results.push(row);
        console.log(JSON.stringify(row));
      }
    } finally {
      agent.destroy();
      await server.stop();
    }
  }

  const table = [
    '| scenario | argon2id m / t | concurrency | orders | ok | orders/s | p50 ms | p95 ms | p99 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const a = r.argon2 as Argon2Params;
      return `| ${String(r.scenario)} | ${a.memoryKiB} KiB / ${a.timeCost} | ${String(r.concurrency)} | ${String(r.orders)} | ${String(r.ok)} | ${String(r.orders_per_s)} | ${String(r.p50_ms)} | ${String(r.p95_ms)} | ${String(r.p99_ms)} |`;
    }),
  ].join('\n');
  console.log(`\n${table}\n`);
  writeResult('orders-latest.json', {
    measured_at: new Date().toISOString(),
    machine: machine(),
    method:
      'One server child process per scenario on 127.0.0.1, temp DATA_DIR (SQLite WAL, synchronous=FULL), ARGON2_MEMORY_KIB/ARGON2_TIME_COST set to the ' +
      "scenario's hash and the users' payment-password hashes made with the same parameters (no rehash); default hash lanes; " +
      'POST /h5/api/api/order/buy 1 t each, 64 users, a new Idempotency-Key per order; workers = concurrency, bounded by orders and seconds per level, each request by 30 s.',
    results,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
