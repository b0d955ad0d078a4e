// Restart with a backlog: `npm run bench:restart` (BENCH_DBS=sqlite or postgres for one database; BENCH_DUE
// for another number of due orders, 0 for the start alone).
//
// Every server here is the one production runs: built by esbuild into dist/server (what `npm start`,
// `start:prod` and the release run with plain Node; the bench builds it first), never tsx compiling the
// source at start. Each start prints its phases (lib/start-phases.ts: Node's bootstrap, modules imported,
// config, the database's first answer, migrations, keys, services, app, listening; wall and CPU ms each),
// which the bench reads from its output: what is left of spawn to ready beyond them is the process's exec and
// the first /readyz answer.
//
// First, for SQLite (a temporary DATA_DIR) and PostgreSQL (a database of its own on BENCH_PG_URL, dropped
// after): migrates, writes 10,000 buy orders whose cycles ended a day ago (as a server finds them after a long
// stop), then starts the server and prints the time from spawn until /healthz first answers 200, and how many
// of the due orders were still left then (the server listens first, then works them off in bounded runs:
// docs/operations.md#restarts).
//
// Then, on PostgreSQL, restarts under load: two instances on one database, 8 clients buying 1 t each in a
// loop (round robin over both instances, payment password skipped as bench:orders' no-password scenario),
// and BENCH_DUE_PER_KILL (2,000) due orders per restart written before the instances start. Instance B is
// killed with -9 and started again, BENCH_KILLS times (5): the time from its spawn until /readyz first
// answers 200, each with its phases, then the median and the worst; the target is 3 s. The instances reach
// the database through a loopback TCP proxy in the bench, so before the middle kill of this server's the
// database is cut for BENCH_CUT_MS (3,000) as a network or server fault cuts it: every open connection
// reset, new ones refused; B is killed a second after it is back, in the same minute. `BENCH_LOAD=0` leaves
// the run under load out, `BENCH_CUT_MS=0` the cut. With BENCH_BEFORE_ROOT (a checkout of the commit before,
// with node_modules), B's restarts alternate between that server and this one in the same run: a
// before/after on the same load. The instances' error output (refusals during the cut) goes to a file whose
// path is printed; the results to bench/results/restart.json.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import readline from 'node:readline';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { dueOrdersLeft, seedDueOrders } from '../tests/helpers/due-orders';
import { argon2Env, createProject, createUsers, ENGINE_ARGON2, freshPgDatabase, machine, postJson, ROOT, sleep, writeResult } from './harness';
import { hashPassword } from '../src/server/lib/crypto';
import { PATHS } from '../src/shared/api';
import { freePort } from './list-bench';

const BACKLOG = Number(process.env.BENCH_DUE ?? 10_000);
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',').filter(Boolean);

/** One phase of a start as the server printed it (`modules 420/390`: wall and CPU ms). */
interface Phase {
  phase: string;
  ms: number;
  cpu_ms: number | null;
}

/** What a start printed: `Started in 812 ms (CPU 640 ms): node 41, modules 420/390, …`. */
interface StartLine {
  started_ms: number;
  cpu_ms: number;
  phases: Phase[];
}

function parseStartLine(line: string): StartLine | null {
  const m = /^Started in (\d+) ms \(CPU (\d+) ms\): (.*)$/.exec(line);
  if (!m) return null;
  const phases = m[3]!.split(', ').map((part) => {
    const [phase, times] = part.split(' ');
    const [ms, cpu] = times!.split('/');
    return { phase: phase!, ms: Number(ms), cpu_ms: cpu === undefined ? null : Number(cpu) };
  });
  return { started_ms: Number(m[1]), cpu_ms: Number(m[2]), phases };
}

/** Builds the server of a checkout into its dist/server, as `npm run build` does after vite. */
function buildServer(root: string): void {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

interface Spawned {
  child: ChildProcess;
  /** The start line, once printed; null if the process ended first or printed none. */
  started: Promise<StartLine | null>;
}

/** `node dist/server/main.js` of `root`, its output read for the start line; its error output to `errors`
 *  (else the bench's own). */
function spawnServer(root: string, env: Record<string, string>, errors?: fs.WriteStream): Spawned {
  const child = spawn(process.execPath, ['dist/server/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', errors ? 'pipe' : 'inherit'] });
  if (errors) child.stderr!.pipe(errors, { end: false });
  const started = new Promise<StartLine | null>((resolve) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const parsed = parseStartLine(line);
      if (parsed) resolve(parsed);
    });
    lines.once('close', () => resolve(null));
  });
  return { child, started };
}

const gone = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/** Polls `path` every 20 ms until it answers 200; its answer's body. */
async function until200(url: string, child: ChildProcess): Promise<Record<string, unknown>> {
  for (;;) {
    if (gone(child)) throw new Error('server exited before it answered');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return (await res.json()) as Record<string, unknown>;
      await res.body?.cancel();
    } catch {
      // not listening yet
    }
    await sleep(20);
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
    const { child, started } = spawnServer(ROOT, env);
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await until200(`${url}/healthz`, child);
      const listenMs = Math.round(performance.now() - t0);
      const left = await dueOrdersLeft(db, Date.now());
      return { db: kind, due_orders: BACKLOG, start_to_healthz_ms: listenMs, due_left_at_first_answer: left, start: await started };
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
const CUT_MS = Number(process.env.BENCH_CUT_MS ?? 3_000);
const CLIENTS = 8;
const PASSWORD = 'Bench#Restart2026';
const READY_TARGET_MS = 3_000;


interface DatabaseLink {
  /** The database's URL through the link. */
  url: string;
  /** Cuts the database for `ms`: every open connection reset, none accepted meanwhile; then back. */
  cut(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A loopback TCP proxy to the database at `url`, on a port of its own. */
async function databaseLink(url: string): Promise<DatabaseLink> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen();
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  return {
    url: through.toString(),
    async cut(ms) {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.resetAndDestroy();
      await closed;
      await sleep(ms);
      await listen();
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};

interface Restart {
  server: 'current' | 'before';
  ready_ms: number;
  /** The first 200 of /readyz said catching_up (due work left from the stop not yet done). */
  catching_up_at_ready: boolean;
  due_left_at_ready: number;
  after_cut: boolean;
  start: StartLine | null;
}

/** Per phase, the median of its wall and CPU ms over the starts that printed it; `exec and first /readyz`
 *  is what spawn to ready took beyond the printed phases. */
function phaseMedians(rs: Restart[]) {
  const withStart = rs.filter((r) => r.start);
  if (withStart.length === 0) return null;
  const names = withStart[0]!.start!.phases.map((p) => p.phase);
  const out: Record<string, { ms: number | null; cpu_ms: number | null }> = {};
  for (const name of names) {
    const ps = withStart.map((r) => r.start!.phases.find((p) => p.phase === name)).filter((p): p is Phase => !!p);
    out[name] = { ms: median(ps.map((p) => p.ms)), cpu_ms: median(ps.flatMap((p) => (p.cpu_ms === null ? [] : [p.cpu_ms]))) };
  }
  out['exec and first /readyz'] = { ms: median(withStart.map((r) => r.ready_ms - r.start!.started_ms)), cpu_ms: null };
  return { starts: withStart.length, started_ms: median(withStart.map((r) => r.start!.started_ms)), cpu_ms: median(withStart.map((r) => r.start!.cpu_ms)), phases: out };
}

const phaseText = (s: StartLine | null) => (s ? s.phases.map((p) => `${p.phase} ${p.ms}${p.cpu_ms === null ? '' : `/${p.cpu_ms}`}`).join(', ') : 'no start line');

/** Two instances on one PostgreSQL database under steady buying; B killed with -9 and started again. */
async function benchUnderLoad() {
  const pgDb = await freshPgDatabase('canopy_bench_restart_load');
  const { db } = openDatabase(pgDb.url, { poolSize: 2 });
  const link = await databaseLink(pgDb.url);
  const errorLog = path.join(os.tmpdir(), `canopy-bench-restart-${process.pid}.log`);
  const errors = fs.createWriteStream(errorLog);
  const children: ChildProcess[] = [];
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
    if (beforeRoot) buildServer(beforeRoot);
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
        ...argon2Env(ENGINE_ARGON2), DATABASE_URL: link.url, SECRET_KEY: 'bench-restart-secret-key-0123456789abcdef', NODE_ENV: 'benchmark', BENCH_SKIP_PAYMENT_PASSWORD: 'true',
      };
      const spawned = spawnServer(root, env, errors);
      children.push(spawned.child);
      return spawned;
    };
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const a = spawnInstance(ports[0]!);
    await until200(`${urls[0]}/readyz`, a.child);
    let b = spawnInstance(ports[1]!);
    await until200(`${urls[1]}/readyz`, b.child);

    // 8 clients, each buying 1 t at a time from the two instances in turn.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });
    const outcomes = { ok: 0, other: 0 };
    const clients = users.map(async (u, w) => {
      for (let i = 0; buying; i++) {
        const reply = await postJson(agent, urls[(w + i) % 2]!, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD }, { Authorization: u.token, 'Idempotency-Key': `rload_${w}_${i}` }, 10_000);
        if (reply.status === 200 && reply.code === 0) outcomes.ok++;
        else {
          outcomes.other++;
          await sleep(20); // B is down, or the database: its share fails at once
        }
      }
    });

    const restarts: Restart[] = [];
    // The cut comes before the middle restart of this server (with BENCH_BEFORE_ROOT: of the current one).
    const cutAt = CUT_MS > 0 ? (beforeRoot ? 2 * Math.floor(KILLS / 2) : Math.floor(KILLS / 2)) : -1;
    await sleep(1000);
    for (let k = 0; k < restartsPlanned; k++) {
      const server = beforeRoot && k % 2 === 1 ? 'before' : 'current';
      await sleep(500);
      if (k === cutAt) {
        await link.cut(CUT_MS);
        console.log(`  database cut for ${CUT_MS} ms (every connection reset, none accepted), back; B killed 1 s later`);
        await sleep(1000);
      }
      b.child.kill('SIGKILL');
      const killed = b.child;
      await new Promise((r) => (gone(killed) ? r(null) : killed.once('exit', r)));
      const t0 = performance.now();
      b = spawnInstance(ports[1]!, server === 'before' ? beforeRoot : ROOT);
      const body = await until200(`${urls[1]}/readyz`, b.child);
      const readyMs = Math.round(performance.now() - t0);
      const start = await Promise.race([b.started, sleep(2000).then(() => null)]);
      const r: Restart = { server, ready_ms: readyMs, catching_up_at_ready: body.catching_up === true, due_left_at_ready: await dueOrdersLeft(db, Date.now()), after_cut: k === cutAt, start };
      restarts.push(r);
      console.log(`  kill ${k + 1} (${server}${r.after_cut ? ', after the cut' : ''}): /readyz 200 after ${readyMs} ms${r.catching_up_at_ready ? ' (catching up)' : ''}; started in ${start?.started_ms ?? '?'} ms: ${phaseText(start)}`);
      await sleep(1500);
    }
    buying = false;
    await Promise.all(clients);
    agent.destroy();
    const summary = (which: 'current' | 'before') => {
      const rs = restarts.filter((r) => r.server === which);
      if (rs.length === 0) return null;
      const ready = rs.map((r) => r.ready_ms);
      return { kills: rs.length, ready_ms: ready, median_ready_ms: median(ready), max_ready_ms: Math.max(...ready), start: phaseMedians(rs) };
    };
    const current = summary('current')!;
    console.log(`  current: median ${current.median_ready_ms} ms, max ${current.max_ready_ms} ms over ${current.kills} kills (target ${READY_TARGET_MS} ms)`);
    const before = summary('before');
    if (before) console.log(`  before:  median ${before.median_ready_ms} ms, max ${before.max_ready_ms} ms over ${before.kills} kills`);
    console.log(`  the instances' error output: ${errorLog}`);
    return {
      db: 'postgres', scenario: 'two instances, 8 clients buying, B killed with -9', due_orders_per_kill: DUE_PER_KILL, cut_ms: CUT_MS,
      current, before, target_ms: READY_TARGET_MS, ok: current.max_ready_ms <= READY_TARGET_MS,
      restarts, buys_ok: outcomes.ok, buys_refused_or_failed: outcomes.other,
    };
  } finally {
    buying = false;
    for (const c of children) if (!gone(c)) c.kill('SIGKILL');
    await sleep(300);
    await link.close();
    errors.end();
    await db.destroy();
    await pgDb.drop();
    for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

async function main() {
  buildServer(ROOT);
  const starts = [];
  for (const kind of DBS) {
    const r = await benchDb(kind);
    starts.push(r);
    console.log(JSON.stringify(r));
  }
  const load = DBS.includes('postgres') && process.env.BENCH_LOAD !== '0' ? await benchUnderLoad() : null;
  if (load) console.log(JSON.stringify(load));
  writeResult('restart.json', { starts, under_load: load, machine: machine() });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
