// Order placement benchmark (issue 4): `npx tsx bench/orders.ts`.
// Starts the real server as a child process on a temporary DATA_DIR (loopback only), makes users and a
// project directly in its SQLite file, then POSTs /h5/api/api/order/buy over HTTP at a few concurrency
// levels, each bounded in count and time. Two scenarios:
//   engine      payment passwords hashed with scrypt N=2^10, so the figure is the order engine itself
//               (HTTP, session, idempotency key, BEGIN IMMEDIATE transaction, ledger, fsync);
//   production  the production scrypt cost (N=2^17), which dominates a real order's latency.
// Prints a table and writes bench/results/orders-latest.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/server/db/connection';
import { writeTx } from '../src/server/db/tx';
import { hashPassword, newToken, OWASP_ARGON2, sha256, type Argon2Params } from '../src/server/lib/crypto';
import { openUserAccounts, PLATFORM, post } from '../src/server/ledger/ledger';
import { API_BASE, PATHS } from '../src/shared/api';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const PASSWORD = 'Bench#Orders2026';
const USERS = 64;

interface Level {
  concurrency: number;
  maxOrders: number;
  maxSeconds: number;
}
const SCENARIOS: { name: string; log2n: number; argon2: Argon2Params; levels: Level[] }[] = [
  {
    name: 'engine',
    log2n: 10,
    argon2: { memoryKiB: 256, timeCost: 1, parallelism: 1 },
    levels: [
      { concurrency: 1, maxOrders: 200, maxSeconds: 15 },
      { concurrency: 8, maxOrders: 400, maxSeconds: 15 },
      { concurrency: 32, maxOrders: 600, maxSeconds: 15 },
      { concurrency: 64, maxOrders: 600, maxSeconds: 15 },
    ],
  },
  {
    name: 'production',
    log2n: 17,
    argon2: OWASP_ARGON2,
    levels: [
      { concurrency: 1, maxOrders: 10, maxSeconds: 20 },
      { concurrency: 8, maxOrders: 32, maxSeconds: 30 },
    ],
  },
];

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

async function waitUp(url: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(url + API_BASE + PATHS.baseconfig);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-orders-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const results: unknown[] = [];
  try {
    await waitUp(url);
    const { db } = openDatabase(path.join(dataDir, 'canopy.db'));
    const now = Date.now();
    for (const scenario of SCENARIOS) {
      const hash = await hashPassword(PASSWORD, scenario.argon2);
      const project = await db
        .insertInto('projects')
        .values({
          name: `Bench ${scenario.name}`, name_cn: '', location: 'Bench', type: 'forestry', standard: 'VCS', status: 'in_progress',
          price: 100, presale_price: null, min_tons: 1, max_tons: 10, total_tons: 10_000_000, remaining_tons: 10_000_000,
          selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000, cycle_value: 30, cycle_unit: 'days', yield_bp: 0,
          required_grade: 0, monthly_limit: 1_000_000, total_limit: 1_000_000, company: '', registry_id: '', methodology: '',
          vintage: 2025, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tokens: string[] = [];
      for (let i = 0; i < USERS; i++) {
        const token = newToken();
        await writeTx(db, async (tx) => {
          const u = await tx
            .insertInto('users')
            .values({
              email: `bench-${scenario.name}-${i}@example.sg`, password_hash: 'x', type: 'personal', company: '', uen: '', first_name: 'Bench', last_name: String(i),
              ic_number: '', mobile: '', avatar: '', invite_code: `${scenario.name[0]!.toUpperCase()}${String(i).padStart(5, '0')}`, invited_by: null, grade: 0,
              credit_score: 'excellent', risk: 0, disabled: 0, login_fails: 0, login_locked: 0, withdraw_password_hash: hash, trade_fails: 0, trade_locked: 0,
              created_at: now, updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await openUserAccounts(tx, u.id);
          await post(tx, { kind: 'topup', memo: 'bench', now, postings: [{ owner: PLATFORM, account: 'bank', amount: -100_000_000 }, { owner: u.id, account: 'available', amount: 100_000_000 }] });
          await tx.insertInto('sessions').values({ token_hash: sha256(token), user_id: u.id, created_at: now, expires_at: now + 30 * 86_400_000, last_seen_at: now, revoked_at: null }).execute();
        });
        tokens.push(token);
      }

      for (const level of scenario.levels) {
        const latencies: number[] = [];
        const codes = new Map<string, number>();
        let next = 0;
        const deadline = performance.now() + level.maxSeconds * 1000;
        const started = performance.now();
        const worker = async (w: number) => {
          while (next < level.maxOrders && performance.now() < deadline) {
            const i = next++;
            const t0 = performance.now();
            let code = 'error';
            try {
              const res = await fetch(url + API_BASE + PATHS.orderBuy, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', Authorization: tokens[(w + i) % tokens.length]!, 'Idempotency-Key': `bench_${scenario.name}_${level.concurrency}_${i}_${w}` },
                body: JSON.stringify({ project_id: project.id, tons: 1, password: PASSWORD }),
              });
              const body = (await res.json()) as { code: number };
              code = res.status === 200 ? String(body.code) : `http_${res.status}`;
            } catch {
              code = 'network';
            }
            latencies.push(performance.now() - t0);
            codes.set(code, (codes.get(code) ?? 0) + 1);
          }
        };
        await Promise.all(Array.from({ length: level.concurrency }, (_, w) => worker(w)));
        const seconds = (performance.now() - started) / 1000;
        latencies.sort((a, b) => a - b);
        const row = {
          scenario: scenario.name,
          scrypt_log2n: scenario.log2n,
          concurrency: level.concurrency,
          orders: latencies.length,
          ok: codes.get('0') ?? 0,
          codes: Object.fromEntries(codes),
          seconds: Number(seconds.toFixed(2)),
          orders_per_s: Number(((codes.get('0') ?? 0) / seconds).toFixed(1)),
          p50_ms: Number(pct(latencies, 50).toFixed(1)),
          p95_ms: Number(pct(latencies, 95).toFixed(1)),
          p99_ms: Number(pct(latencies, 99).toFixed(1)),
        };
        results.push(row);
        console.log(JSON.stringify(row));
      }
    }
    await db.destroy();
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const table = [
    '| scenario | scrypt N | concurrency | orders | ok | orders/s | p50 ms | p95 ms | p99 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...(results as Record<string, number | string>[]).map(
      (r) => `| ${r.scenario} | 2^${r.scrypt_log2n} | ${r.concurrency} | ${r.orders} | ${r.ok} | ${r.orders_per_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  const out = {
    measured_at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', node: process.version, platform: `${os.platform()} ${os.release()}` },
    method: 'Real server child process on 127.0.0.1, temp DATA_DIR (SQLite WAL, synchronous=FULL); POST /h5/api/api/order/buy 1 t each, 64 users, a new Idempotency-Key per order; workers = concurrency, bounded by orders and seconds per level.',
    results,
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/results/orders-latest.json'), JSON.stringify(out, null, 2) + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
