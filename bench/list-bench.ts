// Shared pieces of the list-path benchmarks (bench/http.ts, bench/growth.ts): a Canopy server in a child
// process on SQLite (a temporary DATA_DIR) or PostgreSQL (a schema of its own in the test database, dropped
// at the end) with N generated projects, a bare node:http server answering fixed bytes as the baseline,
// autocannon, timed single requests and the server's RSS. Loopback only; every loop is bounded; only the
// processes started here are stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import { openDatabase, type DB } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import type { ProjectsTable } from '../src/server/db/schema';
import { API_BASE, PATHS } from '../src/shared/api';
import { PROJECT_TYPES } from '../src/shared/schemas/content';
import { ROOT } from './harness';

export type DbKind = 'sqlite' | 'postgres';

/** PostgreSQL for the benches: BENCH_DATABASE_URL, else the machine's test database. */
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// ---------------------------------------------------------------- autocannon (no bundled types)

export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  duration: number;
}
export interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  pipelining?: number;
  timeout?: number;
  requests?: Array<{ method?: string; path?: string; setupRequest?: (req: { path: string }) => { path: string } }>;
}
const require = createRequire(import.meta.url);
export const autocannon = require('autocannon') as (opts: CannonOptions) => Promise<CannonResult>;

// ---------------------------------------------------------------- processes

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string, child: ChildProcess, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

/** Resident set size of a process, MiB (Linux /proc). */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- data

const STATUS_MIX: Array<[ProjectsTable['status'], number]> = [
  ['in_progress', 0.4],
  ['presale', 0.2],
  ['closed', 0.35],
  ['pending_review', 0.05],
];

/** A plausible project `i` of `n`, in a steady state (its status agrees with its times, so the server's
 *  scheduler has nothing to move): statuses and types mixed, selling times spread over two years around
 *  now, a 300-character introduction (a list row is about what the seed's are). */
export function benchProject(i: number, n: number, now: number): Insertable<ProjectsTable> {
  let acc = 0;
  const x = ((i * 7919) % 1000) / 1000;
  const status = STATUS_MIX.find(([, share]) => (acc += share) > x)?.[0] ?? 'closed';
  const day = 86_400_000;
  const spread = (1 + Math.floor((((i * 104_729) % n) / Math.max(1, n)) * 364)) * day; // 1 to 364 days
  const selling = status === 'in_progress' ? now - spread : status === 'closed' ? now - 400 * day - spread : now + spread;
  const end = status === 'closed' ? selling + 300 * day : selling + 400 * day;
  return {
    name: `Bench project ${i}`,
    name_cn: `基准项目 ${i}`,
    location: ['Kalimantan, Indonesia', 'Sabah, Malaysia', 'Mekong Delta, Vietnam', 'Luzon, Philippines', 'Isan, Thailand'][i % 5]!,
    type: PROJECT_TYPES[i % PROJECT_TYPES.length]!,
    standard: i % 2 ? 'VCS' : 'Gold Standard',
    status,
    price: 1500 + (i % 40) * 25,
    presale_price: status === 'presale' ? 1200 : null,
    min_tons: 1,
    max_tons: 100,
    total_tons: 10_000,
    remaining_tons: 10_000 - (i % 5000),
    selling_time: selling,
    end_time: end,
    cycle_value: 30,
    cycle_unit: 'days',
    yield_bp: 500,
    required_grade: 0,
    monthly_limit: 1000,
    total_limit: 5000,
    company: 'Bench Carbon Pte Ltd',
    registry_id: `VCS-${100000 + i}`,
    methodology: 'VM0007',
    vintage: 2024,
    size_ha: 1000 + i,
    image: '/img/projects/default.svg',
    intro: 'A generated project for the list benchmark. '.repeat(7),
    intro_cn: '',
    created_at: now,
    updated_at: now,
  };
}

async function insertProjects(db: DB, count: number): Promise<void> {
  const now = Date.now();
  const BATCH = 500;
  await db.transaction().execute(async (tx) => {
    for (let start = 0; start < count; start += BATCH) {
      const rows: Insertable<ProjectsTable>[] = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) rows.push(benchProject(i, count, now));
      await tx.insertInto('projects').values(rows).execute();
    }
  });
}

// ---------------------------------------------------------------- servers

export interface CanopyServer {
  url: string;
  pid: number;
  db: DbKind;
  /** what openDatabase opens for the bench's own connection (the SQLite file or the schema's URL) */
  target: string;
  /** visible projects (not pending review) */
  visible: number;
  stop(): Promise<void>;
}

/**
 * Starts `src/server/main.ts` in a child process on 127.0.0.1 over a fresh database: migrated here, then
 * `projects` generated projects (plus the demo seed when `seedDemo`), analysed (PostgreSQL: vacuum analyze,
 * as autovacuum would leave it), then the server.
 */
export async function startCanopy(kind: DbKind, opts: { projects: number; seedDemo: boolean; tag: string }): Promise<CanopyServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `canopy-bench-${opts.tag}-`));
  const schema = `bench_${opts.tag.replace(/\W/g, '_')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  let target = path.join(dataDir, 'canopy.db');
  const env: Record<string, string> = {};
  let admin: pg.Client | null = null;
  if (kind === 'postgres') {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    target = url.toString();
    env.DATABASE_URL = target;
  }
  const cleanup = async () => {
    if (admin) {
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let child: ChildProcess | null = null;
  try {
    if (opts.projects > 0) {
      // Otherwise the server migrates (and seeds) by itself, whichever code it runs (BENCH_SERVER_ROOT).
      const { db } = openDatabase(target, { poolSize: 2 });
      try {
        await migrateToLatest(db);
        await insertProjects(db, opts.projects);
        if (kind === 'postgres') await sql`vacuum analyze projects`.execute(db);
        else await sql`analyze`.execute(db);
      } finally {
        await db.destroy();
      }
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const inherited = { ...process.env };
    delete inherited.DATABASE_URL;
    // The server serves ./dist: a copy of the built app made now, so a rebuild of dist/ meanwhile (by
    // anyone) cannot change the files under measurement. BENCH_SERVER_ROOT: run another checkout's server
    // (e.g. the code before a change, for a before/after).
    const dist = path.join(ROOT, 'dist');
    if (fs.existsSync(dist)) fs.cpSync(dist, path.join(dataDir, 'dist'), { recursive: true });
    const main = path.join(process.env.BENCH_SERVER_ROOT ?? ROOT, 'src/server/main.ts');
    child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), main], {
      cwd: dataDir,
      env: { ...inherited, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', SEED_DEMO: String(opts.seedDemo), ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUp(url + API_BASE + PATHS.baseconfig, child);
    const visible = await visibleFromApi(url);
    const started = child;
    return {
      url,
      pid: started.pid!,
      db: kind,
      target,
      visible,
      async stop() {
        await stopChild(started);
        await cleanup();
      },
    };
  } catch (err) {
    if (child) await stopChild(child);
    await cleanup();
    throw err;
  }
}

async function visibleFromApi(url: string): Promise<number> {
  const res = await fetch(`${url}${API_BASE}${PATHS.projectLists}?page_size=1`);
  return ((await res.json()) as { data: { total: number } }).data.total;
}

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The baseline: a bare node:http server in a child process answering `body` with `headers` to every
 *  request (the same bytes Canopy sends for the request measured). */
export async function startBare(body: Buffer, headers: Record<string, string>): Promise<BareServer> {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BARE_BODY, 'base64');
    const headers = { ...JSON.parse(process.env.BARE_HEADERS), 'content-length': body.length };
    http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); }).listen(${port}, '127.0.0.1');
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BARE_BODY: body.toString('base64'), BARE_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUp(url + '/', child, 10_000);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

// ---------------------------------------------------------------- single requests

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive connection; never longer than 30 s. */
export function timedGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
  });
}

export function closeAgent(): void {
  agent.destroy();
}

/** Built static files worth measuring (from dist/ as it is now; the server gets a copy of it): a typical
 *  one (the median script with a .br beside it) and the largest (the entry chunk). Empty without a build. */
export function builtAssets(): Array<{ label: string; path: string; bytes: number; br: boolean }> {
  const dir = path.join(ROOT, 'dist', 'assets');
  if (!fs.existsSync(dir)) return [];
  const scripts = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, bytes: fs.statSync(path.join(dir, f)).size, br: fs.existsSync(path.join(dir, f + '.br')) }))
    .sort((a, b) => a.bytes - b.bytes);
  const withBr = scripts.filter((x) => x.br);
  const pool = withBr.length > 0 ? withBr : scripts;
  const median = pool[Math.floor(pool.length / 2)];
  const largest = pool[pool.length - 1];
  const out = [];
  if (median) out.push({ label: 'typical', path: `/assets/${median.f}`, bytes: median.bytes, br: median.br });
  if (largest && largest !== median) out.push({ label: 'largest', path: `/assets/${largest.f}`, bytes: largest.bytes, br: largest.br });
  return out;
}
