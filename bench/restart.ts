// Restart with a backlog: `npm run bench:restart` (BENCH_DBS=sqlite or postgres for one database; BENCH_DUE
// for another number of due orders, 0 for the start alone).
// For SQLite (a temporary DATA_DIR) and PostgreSQL (a database of its own on BENCH_PG_URL, dropped after):
// migrates, writes 10,000 buy orders whose cycles ended a day ago (as a server finds them after a long stop),
// then starts `src/server/main.ts` in a child process and prints the time from spawn until /healthz first
// answers 200 (tsx's compile included), and how many of the due orders were still left at that moment (the
// server listens first, then works them off in bounded runs: docs/operations.md#restarts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { dueOrdersLeft, seedDueOrders } from '../tests/helpers/due-orders';
import { createProject, createUsers, freshPgDatabase, ROOT } from './harness';
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

async function main() {
  for (const kind of DBS) console.log(JSON.stringify(await benchDb(kind)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
