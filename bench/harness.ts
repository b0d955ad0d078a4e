// Shared pieces of the server benchmarks (orders, login-flood, sold-out): start the real server as a child
// process on a temporary DATA_DIR on loopback, write users, sessions, money and projects straight into
// its SQLite file, send bounded JSON requests over node:http, and write bench/results/*.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type DB } from '../src/server/db/connection';
import { writeTx } from '../src/server/db/tx';
import { newToken, sha256, type Argon2Params } from '../src/server/lib/crypto';
import { openUserAccounts, PLATFORM, post } from '../src/server/ledger/ledger';
import { addBlock } from '../src/server/modules/registry/inventory';
import { API_BASE, PATHS } from '../src/shared/api';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A cheap argon2id, to measure the order engine without the password hash. */
export const ENGINE_ARGON2: Argon2Params = { memoryKiB: 256, timeCost: 1, parallelism: 1 };

/** The server's argon2 configuration for `p`: stored hashes must be made with the parameters the server
 *  runs with, or the first right password rehashes them (and the bench measures that instead). */
export function argon2Env(p: Argon2Params): Record<string, string> {
  return { ARGON2_MEMORY_KIB: String(p.memoryKiB), ARGON2_TIME_COST: String(p.timeCost), ARGON2_PARALLELISM: String(p.parallelism) };
}

/** The hash-lane settings the server runs with: the defaults, or HASH_* from the bench's environment
 *  (the child inherits it), e.g. `HASH_CONCURRENCY_USER=4 npx tsx bench/sold-out.ts`. */
export function hashLanes() {
  const n = (key: string, def: number) => (process.env[key] ? Number(process.env[key]) : def);
  return {
    HASH_CONCURRENCY_ANON: n('HASH_CONCURRENCY_ANON', 1),
    HASH_CONCURRENCY_USER: n('HASH_CONCURRENCY_USER', 2),
    HASH_MAX_WAIT_MS: n('HASH_MAX_WAIT_MS', 3000),
    HASH_JOBS_PER_CLIENT: n('HASH_JOBS_PER_CLIENT', 4),
  };
}

export const argon2Label = (p: Argon2Params) => `m=${p.memoryKiB} KiB, t=${p.timeCost}, p=${p.parallelism}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitUp(url: string, child: ChildProcess, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url + API_BASE + PATHS.baseconfig, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

export interface BenchServer {
  url: string;
  env: Record<string, string>;
  /** The bench's own connection to the server's database (setup and final checks). */
  db: DB;
  /** The server process's id (CPU and memory readings from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts `src/server/main.ts` in a child process on 127.0.0.1 and a new temporary DATA_DIR; on
 *  `databaseUrl` (PostgreSQL, created by the caller) instead of the SQLite file in it when given; the
 *  server of another checkout when `root` is given (a before/after in one run). */
export async function startServer(tag: string, env: Record<string, string>, opts: { databaseUrl?: string; root?: string } = {}): Promise<BenchServer> {
  const { databaseUrl, root = ROOT } = opts;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `canopy-bench-${tag}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fullEnv: Record<string, string> = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env };
  if (databaseUrl) fullEnv.DATABASE_URL = databaseUrl;
  // BENCH_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The bench writes into the server's database: a DATABASE_URL in the bench's environment must not send the server elsewhere.
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...inherited, ...fullEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  let db: DB | undefined;
  const stop = async () => {
    await db?.destroy();
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUp(url, child);
    db = openDatabase(databaseUrl ?? path.join(dataDir, 'canopy.db'), { poolSize: 2 }).db;
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, env: fullEnv, db, pid: child.pid!, stop };
}

/** A project on sale now (in progress), price 100 cents a ton, 1-10 t per order. */
export async function createProject(db: DB, name: string, totalTons: number, remainingTons = totalTons): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('projects')
    .values({
      name, name_cn: '', location: 'Bench', type: 'forestry', standard: 'VCS', status: 'in_progress',
      price: 100, presale_price: null, min_tons: 1, max_tons: 10, total_tons: totalTons, remaining_tons: remainingTons,
      selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000, cycle_value: 30, cycle_unit: 'days', yield_bp: 0,
      required_grade: 0, monthly_limit: 1_000_000, total_limit: 1_000_000, company: '', registry_id: '', methodology: '',
      vintage: 2025, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A project sells only what it holds on its registry (docs/product.md#registry-inventory): a block of its whole supply.
  await addBlock(db, { projectId: row.id, serialRange: `${90_000 + row.id}-1-${totalTons}-VCS-VCU-1-VER-MY-14-${row.id}-01012025-31122025-0`, source: 'seed', demo: true }, now);
  return row.id;
}

export interface BenchUser {
  id: number;
  email: string;
  token: string;
}

/**
 * `count` users `<prefix>-<i>@example.sg`, each with a login password hash, a payment password hash,
 * `cents` of available money (topped up from the platform bank through the ledger) and a live session.
 * Written in transactions of up to 250 users (1,000 users take about a second).
 */
export async function createUsers(
  db: DB,
  opts: { prefix: string; count: number; loginHash: string; tradeHash: string | null; cents: number },
): Promise<BenchUser[]> {
  const now = Date.now();
  const users: BenchUser[] = [];
  for (let start = 0; start < opts.count; start += 250) {
    const batch = await writeTx(db, async (tx) => {
      const made: BenchUser[] = [];
      for (let i = start; i < Math.min(opts.count, start + 250); i++) {
        const email = `${opts.prefix}-${i}@example.sg`;
        const u = await tx
          .insertInto('users')
          .values({
            email, password_hash: opts.loginHash, type: 'personal', company: '', uen: '', first_name: 'Bench', last_name: String(i),
            ic_number: '', mobile: '', avatar: '', invite_code: `${opts.prefix.toUpperCase()}${String(i).padStart(6, '0')}`, invited_by: null, grade: 0,
            credit_score: 'excellent', risk: 0, disabled: 0, login_fails: 0, login_locked: 0, withdraw_password_hash: opts.tradeHash,
            trade_fails: 0, trade_locked: 0, created_at: now, updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await openUserAccounts(tx, u.id);
        if (opts.cents > 0) {
          await post(tx, {
            kind: 'topup', memo: 'bench', now,
            postings: [{ owner: PLATFORM, account: 'bank', amount: -opts.cents }, { owner: u.id, account: 'available', amount: opts.cents }],
          });
        }
        const token = newToken();
        await tx.insertInto('sessions').values({ token_hash: sha256(token), user_id: u.id, created_at: now, expires_at: now + 30 * 86_400_000, last_seen_at: now, revoked_at: null }).execute();
        made.push({ id: u.id, email, token });
      }
      return made;
    });
    users.push(...batch);
  }
  return users;
}

export interface Reply {
  /** when the request was sent (performance.now()) */
  sentAt: number;
  /** HTTP status, 0 for a network error or a timeout */
  status: number;
  /** the envelope's code, null when the body is not an envelope */
  code: number | null;
  ms: number;
  error?: string;
}

/** `status/code` (e.g. "200/0", "200/1609", "429/1004", "network/ECONNRESET"): the outcome of a reply. */
export const outcome = (r: Reply) => (r.status === 0 ? `network/${r.error ?? '?'}` : `${r.status}/${r.code ?? '-'}`);

/** POSTs `body` as JSON to `url + API_BASE + apiPath` through `agent`; never takes longer than `timeoutMs`
 *  (the request is destroyed and the reply is a network error "timeout"). Never throws. `localAddress`
 *  (e.g. 127.0.0.23: all of 127/8 is loopback on Linux) makes the server see another client address. */
export function postJson(
  agent: http.Agent,
  url: string,
  apiPath: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
  localAddress?: string,
): Promise<Reply> {
  const payload = Buffer.from(JSON.stringify(body));
  const t0 = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<Reply, 'ms' | 'sentAt'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, sentAt: t0, ms: performance.now() - t0 });
    };
    const req = http.request(url + API_BASE + apiPath, {
      method: 'POST',
      agent,
      ...(localAddress ? { localAddress } : {}),
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length), ...headers },
    });
    const timer = setTimeout(() => {
      done({ status: 0, code: null, error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let code: number | null = null;
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: unknown };
          if (typeof parsed.code === 'number') code = parsed.code;
        } catch {
          // not JSON
        }
        done({ status: res.statusCode ?? 0, code });
      });
      res.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, code: null, error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, code: null, error: err.code ?? err.message }));
    req.end(payload);
  });
}

/** The nearest-rank percentile of an ascending list. */
export const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN);

export const round = (x: number, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);

/** p50/p95/p99/max of `ms` (unsorted), rounded to 0.1 ms. */
export function latency(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50_ms: round(pct(s, 50)), p95_ms: round(pct(s, 95)), p99_ms: round(pct(s, 99)), max_ms: round(s[s.length - 1] ?? NaN) };
}

export function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[key(it)] = (out[key(it)] ?? 0) + 1;
  return out;
}

export function machine() {
  // The load average says whether something else shared the cores during the run (rerun if it is high).
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? '',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg_1_5_15: os.loadavg().map((x) => round(x, 2)),
  };
}

/** CPU time (user + system) a process has used, in ms, from /proc (0 when it is gone). Load-independent
 *  enough to compare builds on a shared machine: it counts only the time the process ran. */
export function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

export function writeResult(file: string, out: unknown): void {
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results', file), JSON.stringify(out, null, 2) + '\n');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The PostgreSQL server the benchmarks use (trust auth on loopback on the project's machines). */
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Creates database `name` on BENCH_PG_URL's server anew (dropping one left by an earlier run) and returns
 *  its URL and a drop function. */
export async function freshPgDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: BENCH_PG_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
