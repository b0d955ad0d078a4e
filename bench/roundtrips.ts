// PostgreSQL round trips per order (one durable write per order is the aim): `npx tsx bench/roundtrips.ts`.
// A count, not a time, so it is the same on a busy machine as on an idle one. For each build (this
// checkout, and BENCH_BEFORE_ROOT's when given) it starts the server on a fresh PostgreSQL database with
// bench/pg-roundtrips-preload.mjs, places ORDERS buys one after the other (payment password skipped:
// NODE_ENV=benchmark, BENCH_SKIP_PAYMENT_PASSWORD), stops the server and reads how many pg queries the
// process sent in all and inside write transactions (the serial section every other order waits for; one
// order per transaction here, so BEGIN and COMMIT are counted to each order). Before and after the buys the
// server idles 1 s, so its background work (scheduler, hub) is in the count too, as it is in production.
// Prints a table and writes bench/results/roundtrips.json.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../src/server/lib/crypto';
import { PATHS } from '../src/shared/api';
import { createProject, createUsers, ENGINE_ARGON2, argon2Env, freshPgDatabase, machine, postJson, ROOT, sleep, startServer, writeResult } from './harness';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100);
const PASSWORD = 'Bench#Roundtrips2026';

async function measure(build: string, root: string | undefined) {
  const pgDb = await freshPgDatabase('canopy_bench_roundtrips');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-rt-')), 'counts.json');
  const preload = path.join(ROOT, 'bench/pg-roundtrips-preload.mjs');
  const prev = process.env.BENCH_NODE_ARGS;
  process.env.BENCH_NODE_ARGS = `--import ${preload}`;
  const env = { ...argon2Env(ENGINE_ARGON2), NODE_ENV: 'benchmark', BENCH_SKIP_PAYMENT_PASSWORD: 'true', ROUNDTRIPS_FILE: file };
  const server = await startServer('roundtrips', env, { databaseUrl: pgDb.url, root });
  if (prev === undefined) delete process.env.BENCH_NODE_ARGS;
  else process.env.BENCH_NODE_ARGS = prev;
  const agent = new http.Agent({ keepAlive: true });
  let ok = 0;
  try {
    const hash = await hashPassword(PASSWORD, ENGINE_ARGON2);
    const projectId = await createProject(server.db, 'Roundtrips', 1_000_000);
    const [user] = await createUsers(server.db, { prefix: 'rt', count: 1, loginHash: hash, tradeHash: hash, cents: 100_000_000 });
    await sleep(1000);
    for (let i = 0; i < ORDERS; i++) {
      const r = await postJson(agent, server.url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD }, { Authorization: user!.token, 'Idempotency-Key': `roundtrips_${build}_${i}` }, 30_000);
      if (r.status === 200 && r.code === 0) ok++;
    }
    await sleep(1000);
  } finally {
    agent.destroy();
    await server.stop();
    await pgDb.drop();
  }
  const counts = JSON.parse(fs.readFileSync(file, 'utf8')) as { total: number; in_tx: number; waits?: number; waits_in_tx?: number; begins: number; by_statement: Record<string, number> };
  const statements = Object.entries(counts.by_statement)
    .filter(([, n]) => n >= ok / 2)
    .sort((a, b) => b[1] - a[1])
    .map(([text, n]) => `${(n / ok).toFixed(2)}  ${text}`);
  return { build, orders: ok, statements, per_order: Number((counts.total / ok).toFixed(1)), in_write_tx_per_order: Number((counts.in_tx / ok).toFixed(1)), waited_per_order: Number(((counts.waits ?? counts.total) / ok).toFixed(1)), waited_in_write_tx_per_order: Number(((counts.waits_in_tx ?? counts.in_tx) / ok).toFixed(1)), transactions: counts.begins };
}

const rows = [];
if (process.env.BENCH_BEFORE_ROOT) rows.push(await measure('before', process.env.BENCH_BEFORE_ROOT));
rows.push(await measure(process.env.BENCH_BEFORE_ROOT ? 'after' : 'this', undefined));
console.log('\n| build | orders | pg statements per order | of them inside the write transaction | round trips waited for per order | of them inside the write transaction | write transactions |\n|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.build} | ${r.orders} | ${r.per_order} | ${r.in_write_tx_per_order} | ${r.waited_per_order} | ${r.waited_in_write_tx_per_order} | ${r.transactions} |`);
for (const r of rows) console.log(`\n${r.build}, per order (statements sent at least once every two orders):\n${r.statements.join('\n')}`);
writeResult('roundtrips.json', { measured_at: new Date().toISOString(), machine: machine(), before_root: process.env.BENCH_BEFORE_ROOT ?? null, orders: ORDERS, rows });
