// Sold-out burst: `npx tsx bench/sold-out.ts`.
// One server child process on loopback (temp DATA_DIR) at the production argon2id parameters (OWASP:
// m=19 MiB, t=2, p=1) and the default hash lanes (HASH_CONCURRENCY_USER=2, HASH_MAX_WAIT_MS=3000).
// BUYERS distinct users (each with money, a payment password hashed with the server's parameters and a
// live session, written straight into the database in a few transactions) each send ONE 1-ton
// POST /h5/api/api/order/buy at the same moment, on a project with REMAINING tons left. The client is
// node:http with an Agent of maxSockets = BUYERS, so all of them are really in flight together.
// Asserts: exactly REMAINING orders succeed (code 0), every other request gets an answer (counted by HTTP
// status and code; no network error, no timeout), remaining_tons = 0 and REMAINING orders in the table.
// Reports the wall time (goal <= 15 s on 2 cores), p50/p99 of successes and of refusals, and when the
// answers arrived (500 ms steps). Then a second burst of BUYERS buys on the sold-out project measures what
// admitting that many order requests costs the server without any hash (all must be refused).
// HASH_CONCURRENCY_USER / HASH_MAX_WAIT_MS in the environment are passed to the server (to compare
// settings); such a run writes bench/results/sold-out-variant.json instead.
// Runs on SQLite and on PostgreSQL (a database canopy_bench_sold_out the bench creates and drops on
// BENCH_PG_URL's server); BENCH_TARGETS=sqlite or =postgres runs one.
// Writes bench/results/sold-out-sqlite.json and sold-out-postgres.json (sold-out-latest.json: the SQLite run
// before PostgreSQL was added); exits 1 if an assertion fails.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { hashPassword, OWASP_ARGON2 } from '../src/server/lib/crypto';
import { PATHS } from '../src/shared/api';
import { argon2Env, argon2Label, countBy, freshPgDatabase, hashLanes, createProject, createUsers, latency, machine, outcome, postJson, round, startServer, writeResult, type Reply } from './harness';

const PASSWORD = 'Bench#SoldOut2026';
const BUYERS = 1000;
const REMAINING = 100;
const REQUEST_TIMEOUT_MS = 60_000;
const WALL_GOAL_S = 15;

async function main() {
  const targets = (process.env.BENCH_TARGETS ?? 'sqlite,postgres').split(',').filter(Boolean);
  for (const target of targets) {
    if (target !== 'sqlite' && target !== 'postgres') throw new Error(`BENCH_TARGETS: unknown ${target}`);
    const pgDb = target === 'postgres' ? await freshPgDatabase('canopy_bench_sold_out') : undefined;
    try {
      if (!(await burst(target, pgDb?.url))) process.exitCode = 1;
    } finally {
      await pgDb?.drop();
    }
  }
}

/** One burst on one database; false when a check failed. */
async function burst(target: 'sqlite' | 'postgres', databaseUrl: string | undefined): Promise<boolean> {
  const lanes = hashLanes();
  const server = await startServer(`sold-out-${target}`, argon2Env(OWASP_ARGON2), { databaseUrl });
  const agent = new http.Agent({ keepAlive: false, maxSockets: BUYERS, maxTotalSockets: BUYERS });
  let failed: boolean;
  try {
    const setupStart = performance.now();
    const hash = await hashPassword(PASSWORD, OWASP_ARGON2);
    const projectId = await createProject(server.db, 'Bench sold out', REMAINING);
    const users = await createUsers(server.db, { prefix: 'burst', count: BUYERS, loginHash: hash, tradeHash: hash, cents: 1_000_000 });
    const setupS = (performance.now() - setupStart) / 1000;

    const burst = (tag: string): Promise<Reply[]> =>
      Promise.all(
        users.map((u, i) =>
          postJson(agent, server.url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD }, { Authorization: u.token, 'Idempotency-Key': `${tag}_${i}_bench` }, REQUEST_TIMEOUT_MS),
        ),
      );
    const started = performance.now();
    const replies = await burst('sold_out');
    const wallS = (performance.now() - started) / 1000;

    const project = await server.db.selectFrom('projects').select(['remaining_tons']).where('id', '=', projectId).executeTakeFirstOrThrow();
    const orders = await server.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();

    const successes = replies.filter((r) => r.status === 200 && r.code === 0);
    const refusals = replies.filter((r) => r.status !== 0 && !(r.status === 200 && r.code === 0));
    const network = replies.filter((r) => r.status === 0);
    const outcomes = countBy(replies, outcome);
    const checks: Record<string, boolean> = {
      [`exactly ${REMAINING} succeed (code 0)`]: successes.length === REMAINING,
      'every request answered (no network error or timeout)': network.length === 0,
      'remaining_tons = 0': project.remaining_tons === 0,
      [`orders in the table = ${REMAINING}`]: Number(orders.n) === REMAINING,
    };
    // A second burst on the project now sold out: every request is refused by the cheap checks before any
    // hash, so its wall time is what admitting BUYERS order requests costs the server (HTTP, session,
    // idempotency key, project/limits/balance reads), with no hash lane in the way.
    // (Only once sold out: otherwise it would buy what the first left.)
    let again: Reply[] = [];
    let againS = NaN;
    if (project.remaining_tons === 0) {
      const againStart = performance.now();
      again = await burst('sold_out_again');
      againS = (performance.now() - againStart) / 1000;
      const ordersAfter = await server.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
      checks[`a second burst of ${BUYERS} after the sell-out adds no order`] = Number(ordersAfter.n) === Number(orders.n);
    }
    failed = Object.values(checks).some((ok) => !ok);
    // When answers arrived, by outcome, in 500 ms steps from the first request: shows whether refusals
    // come before or after the tons are gone.
    const timeline: Record<string, Record<string, number>> = {};
    for (const r of replies) {
      const step = `${(Math.floor((r.sentAt + r.ms - started) / 500) * 0.5).toFixed(1)}s`;
      const row = (timeline[step] ??= {});
      row[outcome(r)] = (row[outcome(r)] ?? 0) + 1;
    }
    const byOutcome = Object.fromEntries(Object.keys(outcomes).map((k) => [k, latency(replies.filter((r) => outcome(r) === k).map((r) => r.ms))]));
    const result = {
      database: target,
      measured_at: new Date().toISOString(),
      machine: machine(),
      method:
        `Server child process on 127.0.0.1, temp DATA_DIR, ${target === 'postgres' ? 'PostgreSQL 15 on loopback (a database made for the run)' : 'SQLite (WAL, synchronous=FULL)'}, argon2id ${argon2Label(OWASP_ARGON2)}, HASH_CONCURRENCY_USER=${lanes.HASH_CONCURRENCY_USER}, ` +
        `HASH_MAX_WAIT_MS=${lanes.HASH_MAX_WAIT_MS}. ${BUYERS} distinct users with money and sessions send one 1-t buy each at once (node:http, maxSockets ${BUYERS}) ` +
        `on a project with ${REMAINING} t remaining; each request bounded by ${REQUEST_TIMEOUT_MS / 1000} s.`,
      config: { buyers: BUYERS, remaining_tons: REMAINING, argon2: OWASP_ARGON2, ...lanes },
      setup_s: round(setupS, 2),
      wall_s: round(wallS, 2),
      wall_goal_s: WALL_GOAL_S,
      wall_goal_met: wallS <= WALL_GOAL_S,
      checks,
      all_checks_passed: !failed,
      outcomes,
      // Refused with the sold-out catalogue code (project_full 1609, or insufficient_remaining 1606 for the
      // last tons), as opposed to the hash lane's 429 (refused at once: the wait would pass HASH_MAX_WAIT_MS).
      refused_sold_out: refusals.filter((r) => r.code === 1609 || r.code === 1606).length,
      outcome_meaning: { '200/0': 'bought', '200/1609': 'project full (sold out)', '200/1606': 'insufficient remaining', '429/1004': 'hash lane full (HASH_MAX_WAIT_MS)' },
      final: { remaining_tons: project.remaining_tons, orders: Number(orders.n) },
      second_burst_after_sold_out: again.length
        ? { wall_s: round(againS, 2), server_ms_per_request: round((againS * 1000) / BUYERS, 2), outcomes: countBy(again, outcome), latency: latency(again.map((r) => r.ms)) }
        : { skipped: 'the first burst did not sell out' },
      answered_by_time: Object.fromEntries(Object.entries(timeline).sort(([a], [b]) => parseFloat(a) - parseFloat(b))),
      latency: { successes: latency(successes.map((r) => r.ms)), refusals: latency(refusals.map((r) => r.ms)), all: latency(replies.map((r) => r.ms)), by_outcome: byOutcome },
    };

    console.log(`\n${target}:`);
    console.log(
      [
        `| ${BUYERS} concurrent 1-t buys, ${REMAINING} t left | n | p50 ms | p95 ms | p99 ms | max ms |`,
        '|---|---|---|---|---|---|',
        ...Object.entries(byOutcome).map(([k, l]) => `| ${k} | ${l.n} | ${l.p50_ms} | ${l.p95_ms} | ${l.p99_ms} | ${l.max_ms} |`),
        `| successes | ${result.latency.successes.n} | ${result.latency.successes.p50_ms} | ${result.latency.successes.p95_ms} | ${result.latency.successes.p99_ms} | ${result.latency.successes.max_ms} |`,
        `| refusals | ${result.latency.refusals.n} | ${result.latency.refusals.p50_ms} | ${result.latency.refusals.p95_ms} | ${result.latency.refusals.p99_ms} | ${result.latency.refusals.max_ms} |`,
      ].join('\n'),
    );
    for (const [step, row] of Object.entries(result.answered_by_time)) console.log(`answered by ${step} + 0.5 s: ${JSON.stringify(row)}`);
    console.log(`refused as sold out (1609/1606): ${result.refused_sold_out} of ${refusals.length} refusals`);
    console.log(`\nsetup ${result.setup_s} s; wall ${result.wall_s} s (goal <= ${WALL_GOAL_S} s: ${result.wall_goal_met ? 'met' : 'MISSED'})`);
    console.log(`second burst of ${BUYERS} after the sell-out: ${again.length ? `${round(againS, 2)} s, ${JSON.stringify(countBy(again, outcome))}` : 'skipped (not sold out)'}`);
    console.log(`final: ${JSON.stringify(result.final)}; network errors: ${network.length} ${JSON.stringify(countBy(network, outcome))}`);
    for (const [name, ok] of Object.entries(checks)) console.log(`${ok ? 'PASS' : 'FAIL'} ${name}`);
    // A run with other lane settings than the defaults is kept apart from the reference figure.
    const variant = ['HASH_CONCURRENCY_USER', 'HASH_MAX_WAIT_MS', 'HASH_JOBS_PER_CLIENT'].some((k) => process.env[k]);
    writeResult(`sold-out-${variant ? 'variant' : target}.json`, result);
  } finally {
    agent.destroy();
    await server.stop();
  }
  return !failed;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
