// Every effect has its answer (docs/product.md#writes-and-retries), proved with a crashing machine: the real
// server runs as a child process; a stream of keyed orders goes to it while it is killed with SIGKILL at
// random moments and started again on the same data directory; every key is retried until answered. Then:
// every acknowledged order exists exactly once, every retried key was answered soon after the restart (no
// lease to wait out, no key stuck without its answer), and the ledger balances.
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { hashPassword, newToken, sha256 } from '../../src/server/lib/crypto';
import { checkLedger, openUserAccounts, openPlatformAccounts, PLATFORM, post } from '../../src/server/ledger/ledger';
import { API_BASE, PATHS } from '../../src/shared/api';
import { freePort, insertMember, makeTmpDir, serverProcesses } from '../helpers/server';
import { databaseTarget } from '../helpers/database';
import { holdTons } from '../helpers/inventory';

const dataDir = makeTmpDir('canopy-crash-');
const servers = serverProcesses(dataDir);
let child: ChildProcess | null = null;
afterAll(() => servers.close());

const PASSWORD = 'Crash#Test2026';
const ARGON2 = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };

/** When each started server first answered: the restarted server takes orders from then on. */
const upAt: number[] = [];

/** Starts the server and notes when it first answered. */
async function start(port: number): Promise<void> {
  child = await servers.start(port);
  upAt.push(Date.now());
}

it('kill -9 at random moments in a stream of keyed orders: one effect per acknowledged key, every key answered', async () => {
  // Users, a project and money, written straight into the database file before the server starts.
  const { db } = openDatabase(await databaseTarget(dataDir));
  await migrateToLatest(db);
  await openPlatformAccounts(db);
  const now = Date.now();
  const hash = await hashPassword(PASSWORD, ARGON2);
  const tokens: { id: number; token: string }[] = [];
  const project = await db
    .insertInto('projects')
    .values({
      name: 'Crash', name_cn: '', location: 'Test', type: 'forestry', standard: 'VCS', status: 'in_progress', price: 100, presale_price: null,
      min_tons: 1, max_tons: 10, total_tons: 100_000, remaining_tons: 100_000, selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000,
      cycle_value: 30, cycle_unit: 'days', yield_bp: 0, required_grade: 0, monthly_limit: 100_000, total_limit: 100_000, company: '',
      registry_id: '', methodology: '', vintage: 2025, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await holdTons(db, project.id, 100_000, now);
  for (let i = 0; i < 4; i++) {
    const token = newToken();
    const id = await writeTx(db, async (tx) => {
      const u = { id: await insertMember(tx, { email: `crash${i}@example.sg`, first_name: 'Crash', last_name: String(i), invite_code: `CRSH0${i}`, password_hash: hash, withdraw_password_hash: hash }, now) };
      await openUserAccounts(tx, u.id);
      await post(tx, { kind: 'topup', memo: 'crash test', now, postings: [{ owner: PLATFORM, account: 'bank', amount: -1_000_000 }, { owner: u.id, account: 'available', amount: 1_000_000 }] });
      await tx.insertInto('sessions').values({ token_hash: sha256(token), user_id: u.id, created_at: now, expires_at: now + 86_400_000, last_seen_at: now, revoked_at: null }).execute();
      return u.id;
    });
    tokens.push({ id, token });
  }
  await db.destroy();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}${API_BASE}`;
  await start(port);
  let restarts = 0;

  // 48 orders, 4 workers; each key retried until the server answers it.
  interface Result { key: string; user: number; answers: Array<{ code: number; data: unknown }>; failedBefore: boolean; startedAt: number; answeredAt: number; lastFailAt: number }
  const results: Result[] = [];
  let next = 0;
  // A guard for keys never answered (they fail below, by name), not a speed bound: five cold starts alone
  // can take over a minute on a loaded machine, and the test's own limit is above this.
  const deadline = Date.now() + 240_000;
  const worker = async (w: number) => {
    while (next < 48 && Date.now() < deadline) {
      const i = next++;
      const u = tokens[(i + w) % tokens.length]!;
      const r: Result = { key: `crash_${i}_${w}_${newToken().slice(0, 8)}`, user: u.id, answers: [], failedBefore: false, startedAt: Date.now(), answeredAt: 0, lastFailAt: 0 };
      results.push(r);
      while (Date.now() < deadline) {
        try {
          const res = await fetch(base + PATHS.orderBuy, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': r.key },
            body: JSON.stringify({ project_id: project.id, tons: 1 + (i % 3), password: PASSWORD }),
          });
          const body = (await res.json()) as { code: number; data: unknown };
          r.answers.push({ code: body.code, data: body.data });
          r.answeredAt = Date.now();
          // Ask once more with the same key: the same answer must come back (a replay, no second effect).
          if (r.answers.length === 1) continue;
          break;
        } catch {
          r.failedBefore = true;
          r.lastFailAt = Date.now();
          await new Promise((res) => setTimeout(res, 20));
        }
      }
    }
  };
  const killer = (async () => {
    // The first kill waits until the first wave is answered: four orders at once on a server that has just
    // started, which is what the retried keys meet after every restart. Untouched, they are in the
    // yardstick below, so it holds the cost of a cold server at this moment's load, not only a warm one's.
    while (results.filter((r) => r.answers.length === 2).length < 4 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
    for (let k = 0; k < 4 && next < 48; k++) {
      await new Promise((res) => setTimeout(res, 150 + Math.floor(Math.random() * 400)));
      await servers.stop(child!);
      await start(port);
      restarts++;
    }
  })();
  await Promise.all([...Array.from({ length: 4 }, (_, w) => worker(w)), killer]);
  expect(restarts).toBeGreaterThan(0);

  // Every key got an answer, and its retry the same answer.
  expect(results).toHaveLength(48);
  // What an order and its replay take on this machine now, from keys no crash touched, the first wave on a
  // freshly started server among them: the yardstick for "soon" below. A fixed 1 s is too tight on a loaded
  // machine, and a yardstick of warm keys alone is too tight on PostgreSQL, where the first orders
  // of a new process (cold code paths, new connections) take about twice what warm ones do.
  const untouched = results.filter((r) => !r.failedBefore && r.answers.length === 2).map((r) => r.answeredAt - r.startedAt);
  expect(untouched.length).toBeGreaterThan(0);
  const usual = Math.max(...untouched);
  for (const r of results) {
    expect(r.answers.length, r.key).toBe(2);
    expect(r.answers[0], r.key).toEqual(r.answers[1]);
    expect(r.answers[0]!.code, `${r.key}: ${JSON.stringify(r.answers[0])}`).toBe(0);
    // A key whose request died with the server is answered soon after the restarted server answers
    // (retries run every 20 ms while it is down): within what an untouched key takes, plus a second; a
    // lease to wait out would show as more. Counted from when the server answered, like the first wave's
    // keys (sent once it had), not from its port opening: the start's own last work was not the key's wait.
    if (r.failedBefore) {
      const from = Math.max(r.lastFailAt, upAt.find((t) => t >= r.lastFailAt) ?? r.lastFailAt);
      expect(r.answeredAt - from, `${r.key} (untouched keys: at most ${usual} ms)`).toBeLessThan(usual + 1000);
    }
  }

  await servers.stop(child!, 'SIGTERM');
  const check = openDatabase(await databaseTarget(dataDir)).db;
  try {
    // Exactly one order per acknowledged key, and the answers name those orders.
    const orders = await check.selectFrom('orders').select(['id', 'user_id', 'tons']).execute();
    const acknowledged = results.map((r) => (r.answers[0]!.data as { id: number }).id);
    expect(new Set(acknowledged).size).toBe(48);
    expect(orders.map((o) => o.id).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    const keys = await check.selectFrom('idempotency_keys').select(['state', 'response']).execute();
    expect(keys.filter((k) => k.state !== 'done' || k.response === null)).toEqual([]);
    // Each order's receipt committed with it (docs/product.md#receipts): one per order, each user's numbered
    // 1..n without a gap (the top-up written before the start is 1).
    const receipts = await check.selectFrom('receipts').select(['owner_id', 'number', 'kind', 'ref_id']).orderBy('owner_id').orderBy('number').execute();
    expect(receipts.filter((r) => r.kind === 'purchase').map((r) => Number(r.ref_id)).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    for (const { id } of tokens) {
      const numbers = receipts.filter((r) => Number(r.owner_id) === id).map((r) => Number(r.number));
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    }
    const report = await checkLedger(check);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  } finally {
    await check.destroy();
  }
}, 300_000);
