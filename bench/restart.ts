// Restart with a backlog: `npm run bench:restart` (BENCH_DBS=sqlite or postgres for one database; BENCH_DUE
// for another number of due orders, 0 for the start alone).
// For SQLite (a temporary DATA_DIR) and PostgreSQL (a database of its own on BENCH_PG_URL, dropped after):
// migrates, writes 10,000 buy orders whose cycles ended a day ago (as a server finds them after a long stop),
// then starts `src/server/main.ts` in a child process and prints the time from spawn until /healthz first
// answers 200 (tsx's compile included), and how many of the due orders were still left at that moment (the
// server listens first, then works them off in bounded runs: docs/operations.md#restarts).
//
// Then, on PostgreSQL, restarts under load: two instances on one database, 8 clients buying 1 t each in a
// loop (round robin over both instances, payment password skipped as bench:orders' no-password scenario),
// and BENCH_DUE_PER_KILL (2,000) due orders per restart written before the instances start. Instance B is killed with -9 and
// started again, BENCH_KILLS times (5): the time from its spawn until /readyz first answers 200 (tsx's
// compile included), each and the worst; the target is 3 s. `BENCH_LOAD=0` leaves it out. With
// BENCH_BEFORE_ROOT (a checkout of the commit before, with node_modules), B's restarts alternate between
// that server and this one in the same run: a before/after on the same load.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { dueOrdersLeft, seedDueOrders } from '../tests/helpers/due-orders';
import { argon2Env, createProject, createUsers, ENGINE_ARGON2, freshPgDatabase, postJson, ROOT, sleep } from './harness';
import { hashPassword } from '../src/server/lib/crypto';
import { PATHS } from '../src/shared/api';
import { freePort } from './list-bench';

const BACKLOG = Number(process.env.BENCH_DUE ?? 10_000);
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',').filter(Boolean);

async function untilHealthy(url: string, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) throw new Error('server exited before it answered');
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function benchDb(kind: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-restart-'));
  const pgDb = kind === 'postgres' ? await freshPgDatabase('canopy_bench_restart') : null;
  const target = pgDb?.url ?? path.join(dataDir, 'canopy.db');
  const { db } = openDatabase(target, { poolSize: 2 });
  try {
    await migrateToLatest(db);
    const [user] = await createUsers(db, { prefix: 'restart', count: 1, loginHash: 'x', tradeHash: null, cents: 0 });
    const projectId = await createProject(db, 'Restart backlog', 1_000_000);
    await seedDueOrders(db, { userId: user!.id, projectId, now: Date.now(), count: BACKLOG });

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', SEED_DEMO: 'false' };
    delete env.DATABASE_URL;
    if (pgDb) env.DATABASE_URL = pgDb.url;
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await untilHealthy(url, () => child.exitCode !== null);
      const listenMs = Math.round(performance.now() - t0);
      const left = await dueOrdersLeft(db, Date.now());
      return { db: kind, due_orders: BACKLOG, start_to_healthz_ms: listenMs, due_left_at_first_answer: left };
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    await db.destroy();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const KILLS = Number(process.env.BENCH_KILLS ?? 5);
const DUE_PER_KILL = Number(process.env.BENCH_DUE_PER_KILL ?? 2_000);
const CLIENTS = 8;
const PASSWORD = 'Bench#Restart2026';
const READY_TARGET_MS = 3_000;

async function untilReady(url: string, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) throw new Error('server exited before it was ready');
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Two instances on one PostgreSQL database under steady buying; B killed with -9 and started again. */
async function benchUnderLoad() {
  const pgDb = await freshPgDatabase('canopy_bench_restart_load');
  const { db } = openDatabase(pgDb.url, { poolSize: 2 });
  const children: ReturnType<typeof spawn>[] = [];
  const dataDirs: string[] = [];
  let buying = true;
  try {
    await migrateToLatest(db);
    // A payment password set (the buy refuses a member without one), hashed as the servers are told to.
    const hash = await hashPassword(PASSWORD, ENGINE_ARGON2);
    const users = await createUsers(db, { prefix: 'rload', count: CLIENTS, loginHash: hash, tradeHash: hash, cents: 1_000_000_000 });
    const [due] = await createUsers(db, { prefix: 'rdue', count: 1, loginHash: 'x', tradeHash: null, cents: 0 });
    const projectId = await createProject(db, 'Restart load', 100_000_000);

    const beforeRoot = process.env.BENCH_BEFORE_ROOT;
    // The backlog, written before the instances start (the servers allocate order ids themselves, so rows
    // written beside them would collide): DUE_PER_KILL per restart, which A works off meanwhile.
    const restartsPlanned = beforeRoot ? KILLS * 2 : KILLS;
    for (let k = 0; k < restartsPlanned; k++) {
      const dueProject = await createProject(db, `Restart backlog ${k}`, 100_000_000);
      await seedDueOrders(db, { userId: due!.id, projectId: dueProject, now: Date.now(), count: DUE_PER_KILL });
    }
    const spawnInstance = (port: number, root = ROOT) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-restart-load-'));
      dataDirs.push(dataDir);
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', SEED_DEMO: 'false',
        ...argon2Env(ENGINE_ARGON2), DATABASE_URL: pgDb.url, SECRET_KEY: 'bench-restart-secret-key-0123456789abcdef', NODE_ENV: 'benchmark', BENCH_SKIP_PAYMENT_PASSWORD: 'true',
      };
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
      children.push(child);
      return child;
    };
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const a = spawnInstance(ports[0]!);
    await untilReady(urls[0]!, () => a.exitCode !== null);
    let b = spawnInstance(ports[1]!);
    await untilReady(urls[1]!, () => b.exitCode !== null);

    // 8 clients, each buying 1 t at a time from the two instances in turn.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });
    const outcomes = { ok: 0, other: 0 };
    const clients = users.map(async (u, w) => {
      for (let i = 0; buying; i++) {
        const reply = await postJson(agent, urls[(w + i) % 2]!, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD }, { Authorization: u.token, 'Idempotency-Key': `rload_${w}_${i}` }, 10_000);
        if (reply.status === 200 && reply.code === 0) outcomes.ok++;
        else {
          outcomes.other++;
          await sleep(20); // B is down: its share fails at once
        }
      }
    });

    const restarts: { server: 'current' | 'before'; ready_ms: number; due_left_at_ready: number }[] = [];
    await sleep(1000);
    for (let k = 0; k < restartsPlanned; k++) {
      const server = beforeRoot && k % 2 === 1 ? 'before' : 'current';
      await sleep(500);
      b.kill('SIGKILL');
      await new Promise((r) => (b.exitCode !== null || b.signalCode !== null ? r(null) : b.once('exit', r)));
      const t0 = performance.now();
      b = spawnInstance(ports[1]!, server === 'before' ? beforeRoot : ROOT);
      const child = b;
      await untilReady(urls[1]!, () => child.exitCode !== null);
      const readyMs = Math.round(performance.now() - t0);
      restarts.push({ server, ready_ms: readyMs, due_left_at_ready: await dueOrdersLeft(db, Date.now()) });
      console.log(`  restart ${k + 1} (${server}): /readyz 200 after ${readyMs} ms`);
      await sleep(1500);
    }
    buying = false;
    await Promise.all(clients);
    agent.destroy();
    const mine = restarts.filter((r) => r.server === 'current').map((r) => r.ready_ms);
    const before = restarts.filter((r) => r.server === 'before').map((r) => r.ready_ms);
    const worst = Math.max(...mine);
    return {
      worst_before_ms: before.length ? Math.max(...before) : null,
      db: 'postgres', scenario: 'two instances, 8 clients buying, B killed with -9', kills: KILLS, due_orders_per_kill: DUE_PER_KILL,
      restarts, worst_ready_ms: worst, target_ms: READY_TARGET_MS, ok: worst <= READY_TARGET_MS, buys_ok: outcomes.ok, buys_refused_or_failed: outcomes.other,
    };
  } finally {
    buying = false;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await sleep(300);
    await db.destroy();
    await pgDb.drop();
    for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

async function main() {
  for (const kind of DBS) console.log(JSON.stringify(await benchDb(kind)));
  if (DBS.includes('postgres') && process.env.BENCH_LOAD !== '0') console.log(JSON.stringify(await benchUnderLoad()));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
