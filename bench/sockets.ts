// Live socket fan-out benchmark: `npm run bench:sockets` (npx tsx bench/sockets.ts).
// Scenarios (loopback only, every loop bounded, only the processes started here are stopped):
//   sqlite    one server child process on a temporary DATA_DIR (SQLite, in-process push);
//   postgres  two server child processes on one PostgreSQL schema (LISTEN/NOTIFY), the sockets split
//             evenly across both and the write always on the first, so half the receipts cross instances.
// Per scenario: 1,000 users with live sessions are written straight into the database (as bench/harness.ts
// does), then 1,000 ws clients (this process) open the live socket, one per user, 50 handshakes at a time.
// Memory per idle socket: first WARM_SOCKETS sockets are opened and closed on every instance (what the first
// handshakes cost once is then in the baseline); then each instance's VmRSS, V8 heapUsed and external memory
// are read before the sockets open and again after they have sat idle for IDLE_S seconds, each reading the
// lowest of 4 taken after a full GC forced through the inspector the servers are started with (--inspect on
// 127.0.0.1, bench only: no hook in the server); the difference summed over the instances, over 1,000, is the
// figure per idle socket (the earlier reading, VmRSS without a forced GC, is reported beside it: it moves
// with the collector). BENCH_HEAP_SNAPSHOT=<dir> also writes heap snapshots before and with the sockets (then
// the RSS figure holds the snapshots' own memory: read the heap's). Then ROUNDS rounds, each
// one order (POST /api/order/buy, 1 t, payment-password check off: NODE_ENV=benchmark) whose commit publishes
// `invalidate projects` to everyone; the latency of a receipt is from the moment the order request was sent
// to the moment that client's message event fired, so it is an upper bound of commit-to-receipt (it also
// holds the order's own handling, reported beside it). Clients record a timestamp and nothing else.
// BENCH_BEFORE=<git ref> (e.g. HEAD) or <directory of a clone with node_modules> runs the same scenarios on
// that code's server too (a ref: git archive into a temporary directory, node_modules linked), so before and
// after are one run. BENCH_SCENARIOS=sqlite runs
// one. Prints a table and writes bench/results/sockets.json.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { openDatabase, type DB } from '../src/server/db/connection';
import { hashPassword } from '../src/server/lib/crypto';
import { publish } from '../src/server/live/events';
import { API_BASE, PATHS } from '../src/shared/api';
import { SOCKET_PATH, SOCKET_VERSION } from '../src/shared/constants';
import { argon2Env, createProject, createUsers, ENGINE_ARGON2, latency, machine, postJson, ROOT, round, sleep, writeResult, type BenchUser } from './harness';
import { freePort, PG_URL } from './list-bench';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const ROUND_TIMEOUT_MS = 5000;
const ROUND_GAP_MS = 150;
const HANDSHAKES_AT_ONCE = 50;
const IDLE_S = 3;
/** Sockets opened and closed on each instance before the baseline reading. */
const WARM_SOCKETS = Number(process.env.BENCH_WARM_SOCKETS ?? 100);
const PASSWORD = 'Bench#Sockets2026';
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'sqlite,postgres').split(',').filter(Boolean) as Array<'sqlite' | 'postgres'>;

/** Resident set size in KiB (finer than rssMiB for a per-socket figure). */
function rssKiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The lowest of a few RSS readings 500 ms apart, no GC forced (the reading used before the GC-settled one). */
async function settledRssKiB(pid: number, samples = 4): Promise<number> {
  let low = Infinity;
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(500);
    low = Math.min(low, rssKiB(pid) ?? Infinity);
  }
  return Number.isFinite(low) ? low : NaN;
}

/**
 * The bench's view into a server's memory, through the inspector the bench starts it with
 * (`--inspect=127.0.0.1:<port>`, loopback, these child processes only: nothing in the server's code, no
 * endpoint). Each reading forces a full collection (HeapProfiler.collectGarbage) and then reads VmRSS and
 * process.memoryUsage(), so garbage left by the handshakes is not counted as the sockets' memory. Works on
 * any checkout (BENCH_BEFORE too): it needs no hook in the server.
 */
interface Inspector {
  /** Full GC, then { rss (VmRSS), heap (heapUsed), external (external, with array buffers) } in KiB. */
  reading(): Promise<MemReading>;
  /** Writes a V8 heap snapshot to `file` (BENCH_HEAP_SNAPSHOT: to see what each socket holds). */
  snapshot(file: string): Promise<void>;
  close(): void;
}
interface MemReading {
  rss: number;
  heap: number;
  external: number;
}

async function inspect(port: number, pid: number): Promise<Inspector> {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5000) })).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const ws = new WebSocket(list[0]!.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  let chunks: string[] = [];
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; method?: string; params?: { chunk: string } };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
    else if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(msg.params!.chunk);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`inspector ${method}: no answer`)), 30_000);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(result);
      });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    async reading() {
      await call('HeapProfiler.collectGarbage');
      const r = (await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
      const mu = JSON.parse(r.result.value) as NodeJS.MemoryUsage;
      return { rss: rssKiB(pid) ?? NaN, heap: mu.heapUsed / 1024, external: mu.external / 1024 };
    },
    async snapshot(file) {
      chunks = [];
      await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      fs.writeFileSync(file, chunks.join(''));
      chunks = [];
    },
    close: () => ws.close(),
  };
}

/** The lowest of a few readings, each after a full GC, 300 ms apart (RSS, heap and external each its own
 *  lowest: what the process keeps, not what the next collection would free). */
async function settledMemory(inspector: Inspector, samples = 4): Promise<MemReading> {
  const low: MemReading = { rss: Infinity, heap: Infinity, external: Infinity };
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(300);
    const r = await inspector.reading();
    low.rss = Math.min(low.rss, r.rss);
    low.heap = Math.min(low.heap, r.heap);
    low.external = Math.min(low.external, r.external);
  }
  return low;
}

interface Instance {
  url: string;
  wsUrl: string;
  pid: number;
  child: ChildProcess;
  inspector: Inspector;
}

async function waitUp(url: string, child: ChildProcess, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url + API_BASE + PATHS.baseconfig, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not start within ${ms} ms`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

async function spawnServer(codeRoot: string, dataDir: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const inspectPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_NODE_ARGS: extra node flags for the servers (as bench/harness.ts), e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...nodeArgs, `--inspect=127.0.0.1:${inspectPort}`, '--import', import.meta.resolve('tsx'), path.join(codeRoot, 'src/server/main.ts')], {
    cwd: dataDir,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      SEED_DEMO: 'false',
      NODE_ENV: 'benchmark',
      BENCH_SKIP_PAYMENT_PASSWORD: 'true',
      // every client comes from 127.0.0.1: the per-address cap would refuse all but 100
      SOCKETS_PER_IP: String(CLIENTS * 2),
      ...argon2Env(ENGINE_ARGON2),
      ...env,
    },
    // stderr: the inspector's "Debugger listening" lines are dropped, anything else is passed on
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8').split('\n').filter((l) => l && !/^(Debugger (listening|attached|ending)|For help, see|Waiting for the debugger)/.test(l)).join('\n');
    if (text) process.stderr.write(text + '\n');
  });
  let inspector: Inspector;
  try {
    await waitUp(url, child);
    inspector = await inspect(inspectPort, child.pid!);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { url, wsUrl: `ws://127.0.0.1:${port}${SOCKET_PATH}`, pid: child.pid!, child, inspector };
}

/** A checkout of `ref` in a temporary directory (git archive, node_modules linked); a directory (a clone
 *  with its node_modules) is used as it is. */
function checkout(ref: string): string {
  if (fs.existsSync(path.join(ref, 'src/server/main.ts'))) return path.resolve(ref);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-sockets-before-'));
  const archive = spawnSync('sh', ['-c', `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT, stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

interface Client {
  ws: WebSocket;
  /** performance.now() of the last `invalidate projects` message */
  got: number;
}

const MARK = '"projects"';

function connect(inst: Instance, user: BenchUser, onMark: () => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${inst.wsUrl}?mem_id=${user.id}&token=${user.token}&v=${SOCKET_VERSION}`);
    const client: Client = { ws, got: 0 };
    ws.on('message', (data: Buffer) => {
      if (data.includes(MARK)) {
        client.got = performance.now();
        onMark();
      }
    });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('handshake timeout'));
    }, 30_000);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve(client);
    });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`HTTP ${res.statusCode}`));
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

interface Database {
  env: Record<string, string>;
  /** the bench's own connection, once the first instance has migrated */
  open(dataDir: string): DB;
  drop(): Promise<void>;
}

async function database(kind: 'sqlite' | 'postgres'): Promise<Database> {
  if (kind === 'sqlite') return { env: {}, open: (dir) => openDatabase(path.join(dir, 'canopy.db')).db, drop: () => Promise.resolve() };
  const schema = `bench_sockets_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase(url.toString(), { poolSize: 4 }).db,
    drop: async () => {
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}

async function scenario(kind: 'sqlite' | 'postgres', code: string, codeRoot: string) {
  const keyTag = `${kind}_${randomBytes(4).toString('hex')}`;
  const instancesWanted = kind === 'postgres' ? 2 : 1;
  const dbase = await database(kind);
  const dirs: string[] = [];
  const instances: Instance[] = [];
  const clients: Client[] = [];
  let db: DB | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  try {
    for (let i = 0; i < instancesWanted; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `canopy-bench-sockets-${kind}-`));
      dirs.push(dir);
      instances.push(await spawnServer(codeRoot, dir, dbase.env));
    }
    db = dbase.open(dirs[0]!);
    const hash = await hashPassword(PASSWORD, ENGINE_ARGON2);
    const projectId = await createProject(db, `Bench sockets ${kind}`, 10_000_000);
    const users = await createUsers(db, { prefix: `s${kind.slice(0, 2)}`, count: CLIENTS, loginHash: hash, tradeHash: hash, cents: 100_000_000 });

    // Warm the write path and the instances (one order each way), then read the RSS before the sockets.
    for (let w = 0; w < 3; w++) {
      await postJson(agent, instances[0]!.url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD }, { Authorization: users[w]!.token, 'Idempotency-Key': `warm_${keyTag}_${w}` }, 10_000);
    }
    // Warm the socket path on every instance the same way (WARM_SOCKETS handshakes each, HANDSHAKES_AT_ONCE at
    // a time, then closed): what the first handshakes cost once (compiled code, the database pool's
    // connections, the heap's young generation grown) is then in the baseline, not spread over the sockets.
    for (const inst of instances) {
      for (let start = 0; start < WARM_SOCKETS; start += HANDSHAKES_AT_ONCE) {
        const warm = await Promise.all(users.slice(start, start + HANDSHAKES_AT_ONCE).map((u) => connect(inst, u, () => undefined)));
        await Promise.all(warm.map((c) => new Promise((resolve) => {
          c.ws.once('close', resolve);
          c.ws.close();
        })));
      }
    }
    await sleep(1000);
    const rawBefore = await Promise.all(instances.map((i) => settledRssKiB(i.pid)));
    const memBefore = await Promise.all(instances.map((i) => settledMemory(i.inspector)));
    if (process.env.BENCH_HEAP_SNAPSHOT) {
      fs.mkdirSync(process.env.BENCH_HEAP_SNAPSHOT, { recursive: true });
      for (const [k, inst] of instances.entries()) await inst.inspector.snapshot(path.join(process.env.BENCH_HEAP_SNAPSHOT, `${kind}-${code.replace(/\W+/g, '_')}-${k}-before.heapsnapshot`));
    }

    let pendingRound = 0;
    let waiting: (() => void) | null = null;
    const onMark = () => {
      if (--pendingRound === 0) waiting?.();
    };
    const t0 = performance.now();
    for (let start = 0; start < CLIENTS; start += HANDSHAKES_AT_ONCE) {
      const batch = users.slice(start, start + HANDSHAKES_AT_ONCE).map((u, k) => connect(instances[(start + k) % instances.length]!, u, onMark));
      clients.push(...(await Promise.all(batch)));
    }
    const connectS = (performance.now() - t0) / 1000;
    await sleep(IDLE_S * 1000);
    const rawIdle = await Promise.all(instances.map((i) => settledRssKiB(i.pid)));
    const memIdle = await Promise.all(instances.map((i) => settledMemory(i.inspector)));
    if (process.env.BENCH_HEAP_SNAPSHOT) {
      fs.mkdirSync(process.env.BENCH_HEAP_SNAPSHOT, { recursive: true });
      for (const [k, inst] of instances.entries()) await inst.inspector.snapshot(path.join(process.env.BENCH_HEAP_SNAPSHOT, `${kind}-${code.replace(/\W+/g, '_')}-${k}-idle.heapsnapshot`));
    }
    const deflate = clients.filter((c) => c.ws.extensions.includes('permessage-deflate')).length;

    const receipts: number[] = [];
    const crossReceipts: number[] = [];
    const spread: number[] = [];
    const orderMs: number[] = [];
    const commitReceipts: number[] = [];
    let missed = 0;
    /** One round: `write` makes the change and says when to count from; every client's receipt is noted. */
    const round_ = async (write: () => Promise<number>, into: number[], cross: number[] | null) => {
      for (const c of clients) c.got = 0;
      pendingRound = clients.length;
      const all = new Promise<void>((resolve) => {
        waiting = resolve;
        setTimeout(resolve, ROUND_TIMEOUT_MS);
      });
      const from = await write();
      await all;
      waiting = null;
      let first = Infinity;
      for (const c of clients) if (c.got) first = Math.min(first, c.got);
      clients.forEach((c, i) => {
        if (c.got === 0) missed++;
        else {
          into.push(c.got - from);
          if (cross && i % instances.length !== 0) cross.push(c.got - from);
          if (cross) spread.push(c.got - first);
        }
      });
      await sleep(ROUND_GAP_MS);
    };
    for (let r = 0; r < ROUNDS; r++) {
      await round_(async () => {
        const buyer = users[(r * 7) % users.length]!;
        const reply = await postJson(
          agent, instances[0]!.url, PATHS.orderBuy, { project_id: projectId, tons: 1, password: PASSWORD },
          { Authorization: buyer.token, 'Idempotency-Key': `sock_${keyTag}_${r}` }, 10_000,
        );
        if (reply.status !== 200 || reply.code !== 0) throw new Error(`order refused: ${reply.status}/${String(reply.code)}`);
        orderMs.push(reply.ms);
        return reply.sentAt;
      }, receipts, crossReceipts);
    }
    // The operator CLI's path, which gives the commit's moment exactly: the bench's own connection commits
    // the event (publish: the insert, which on PostgreSQL notifies; on SQLite the server's hub sees the
    // database's WAL file change), counted from the commit's acknowledgement.
    {
      for (let r = 0; r < ROUNDS; r++) {
        await round_(async () => {
          await db!.transaction().execute((tx) => publish(tx, { type: 'invalidate', tables: ['projects'], ids: [projectId] }, null, Date.now()));
          return performance.now();
        }, commitReceipts, null);
      }
    }
    const rssAfter = instances.map((i) => rssKiB(i.pid) ?? NaN);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const perSocket = (after: MemReading[], before: MemReading[], key: keyof MemReading) =>
      round((sum(after.map((m) => m[key])) - sum(before.map((m) => m[key]))) / clients.length, 2);
    const roundMem = (m: MemReading) => ({ rss: Math.round(m.rss), heap: Math.round(m.heap), external: Math.round(m.external) });
    const lat = latency(receipts);
    return {
      scenario: kind,
      code,
      instances: instances.length,
      clients: clients.length,
      rounds: ROUNDS,
      connect_s: round(connectS, 2),
      permessage_deflate_negotiated: deflate,
      receipts: lat,
      receipts_on_other_instance: crossReceipts.length ? latency(crossReceipts) : null,
      /** receipt - the round's first receipt: the fan-out's own spread */
      spread: latency(spread),
      /** From the commit acknowledged to receipt (the CLI path: on PostgreSQL both instances by NOTIFY, on SQLite by the WAL watch) */
      commit_to_receipt: commitReceipts.length ? latency(commitReceipts) : null,
      missed,
      order_http: latency(orderMs),
      mem_before_kib: memBefore.map(roundMem),
      mem_idle_sockets_kib: memIdle.map(roundMem),
      rss_after_rounds_kib: rssAfter,
      /** GC-settled: (sum over instances of the lowest VmRSS of 4 readings, each after a full GC) with the sockets - before, / clients */
      rss_per_idle_socket_kib: perSocket(memIdle, memBefore, 'rss'),
      /** the same for V8's heapUsed and for external memory (Buffers, ArrayBuffers) */
      heap_per_idle_socket_kib: perSocket(memIdle, memBefore, 'heap'),
      external_per_idle_socket_kib: perSocket(memIdle, memBefore, 'external'),
      /** the reading used before: VmRSS without a forced GC (lowest of 4, 500 ms apart); moves with the collector */
      rss_per_idle_socket_no_gc_kib: round((sum(rawIdle) - sum(rawBefore)) / clients.length, 2),
    };
  } finally {
    for (const c of clients) c.ws.terminate();
    agent.destroy();
    await db?.destroy();
    for (const inst of instances) {
      inst.inspector.close();
      await stopChild(inst.child);
    }
    await dbase.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const codes: Array<{ code: string; root: string }> = [];
  const before = process.env.BENCH_BEFORE;
  if (before) codes.push({ code: `before (${before})`, root: checkout(before) });
  codes.push({ code: 'this checkout', root: ROOT });
  const results = [];
  try {
    for (const kind of SCENARIOS) {
      for (const c of codes) {
        const r = await scenario(kind, c.code, c.root);
        console.log(JSON.stringify(r));
        results.push(r);
        await sleep(1000);
      }
    }
  } finally {
    for (const c of codes) if (c.root !== ROOT && c.root.startsWith(os.tmpdir() + '/canopy-sockets-before-')) fs.rmSync(c.root, { recursive: true, force: true });
  }
  const table = [
    '| scenario | code | instances | clients | order sent to receipt p50 / p99 / max ms | other instance p50 / p99 ms | fan-out spread p50 / p99 ms | commit to receipt p50 / p99 ms | missed | order p50 ms | RSS per idle socket KiB (GC-settled; no GC) | heap + external per idle socket KiB | deflate negotiated |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.scenario} | ${r.code} | ${r.instances} | ${r.clients} | ${r.receipts.p50_ms} / ${r.receipts.p99_ms} / ${r.receipts.max_ms} | ${r.receipts_on_other_instance ? `${r.receipts_on_other_instance.p50_ms} / ${r.receipts_on_other_instance.p99_ms}` : '-'} | ${r.spread.p50_ms} / ${r.spread.p99_ms} | ${r.commit_to_receipt ? `${r.commit_to_receipt.p50_ms} / ${r.commit_to_receipt.p99_ms}` : '-'} | ${r.missed} | ${r.order_http.p50_ms} | ${r.rss_per_idle_socket_kib}; ${r.rss_per_idle_socket_no_gc_kib} | ${r.heap_per_idle_socket_kib} + ${r.external_per_idle_socket_kib} | ${r.permessage_deflate_negotiated} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  writeResult('sockets.json', {
    measured_at: new Date().toISOString(),
    machine: machine(),
    method:
      `Server child process(es) on 127.0.0.1 (SQLite: one; PostgreSQL: two on one schema, sockets split evenly, the write on the first). ` +
      `${CLIENTS} users with sessions written into the database; ${CLIENTS} ws clients in the bench process (the ws client offers permessage-deflate), ` +
      `${HANDSHAKES_AT_ONCE} handshakes at a time. First ${WARM_SOCKETS} sockets opened and closed on each instance (the socket path warm everywhere). ` +
      `RSS per idle socket: (sum of the instances' VmRSS ${IDLE_S} s after the last socket opened - before any opened) / clients, each the lowest of 4 readings 300 ms apart ` +
      `each after a full GC forced through the inspector the bench starts the servers with (--inspect on 127.0.0.1; HeapProfiler.collectGarbage), ` +
      `heap and external the same from process.memoryUsage(); the no-GC figure is the earlier method (lowest of 4 VmRSS readings 500 ms apart). ` +
      `${ROUNDS} rounds, each one POST order/buy on the first instance whose commit publishes invalidate projects to everyone; latency = client message event - order request sent ` +
      `(an upper bound of commit-to-receipt; includes the order's handling, order_http); spread = receipt - the round's first receipt. ` +
      `PostgreSQL also: ${ROUNDS} rounds of the CLI path (the bench's connection commits insert + NOTIFY), counted from the commit's acknowledgement.`,
    results,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
