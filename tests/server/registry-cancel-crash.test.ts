// A retirement and its pending registry cancellation are one transaction (docs/product.md#registry-cancellation),
// proved with a crashing machine: the real server runs as a child process; a stream of keyed retirements
// goes to it while it is killed with SIGKILL at random moments and started again on the same data; every key
// is retried until answered. Then no retirement lacks its pending cancellation or its registry units, and no
// cancellation lacks its retirement.
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { hashPassword, newToken, sha256 } from '../../src/server/lib/crypto';
import { openPlatformAccounts, openUserAccounts, PLATFORM, post } from '../../src/server/ledger/ledger';
import { parseSerialRange } from '../../src/server/modules/registry/serials';
import { addBlock } from '../../src/server/modules/registry/inventory';
import { API_BASE, PATHS } from '../../src/shared/api';
import { freePort, insertMember, makeTmpDir, serverProcesses } from '../helpers/server';
import { databaseTarget } from '../helpers/database';

const dataDir = makeTmpDir('canopy-registry-crash-');
const servers = serverProcesses(dataDir);
afterAll(() => servers.close());

const PASSWORD = 'Crash#Test2026';
const ARGON2 = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };
const BLOCK = '30001-700000001-700001000-VCS-VCU-304-VER-CN-1-3001-01012024-31122024-0';

let child: ChildProcess | null = null;

async function start(port: number): Promise<void> {
  child = await servers.start(port);
}

it('kill -9 in a stream of retirements never leaves a retirement without its pending cancellation, or one without the other', async () => {
  const { db } = openDatabase(await databaseTarget(dataDir));
  await migrateToLatest(db);
  await openPlatformAccounts(db);
  const now = Date.now();
  const hash = await hashPassword(PASSWORD, ARGON2);
  const project = await db
    .insertInto('projects')
    .values({
      name: 'Crash Forest', name_cn: '', location: 'Test', type: 'forestry', standard: 'VCS', status: 'in_progress', price: 100, presale_price: null,
      min_tons: 1, max_tons: 10, total_tons: 1000, remaining_tons: 1000, selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000,
      cycle_value: 30, cycle_unit: 'days', yield_bp: 0, required_grade: 0, monthly_limit: 100_000, total_limit: 100_000, company: '', registry: 'Verra',
      registry_id: 'VCS-3001', methodology: 'VM0007', vintage: 2024, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const range = parseSerialRange(BLOCK);
  if (!range.ok) throw new Error('the block does not parse');
  await addBlock(db, { projectId: project.id, serialRange: BLOCK, source: 'add' }, now);
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const token = newToken();
    await writeTx(db, async (tx) => {
      const u = { id: await insertMember(tx, { email: `registry.crash${i}@example.sg`, first_name: 'Crash', last_name: String(i), invite_code: `RGCR0${i}`, password_hash: hash, withdraw_password_hash: hash }, now) };
      await openUserAccounts(tx, u.id);
      // Credits held as a completed order leaves them.
      await post(tx, { kind: 'credit_issue', ref_type: 'order', ref_id: 0, memo: 'crash test', now, postings: [{ owner: PLATFORM, account: 'registry', amount: -100 }, { owner: u.id, account: 'credits', amount: 100 }] });
      await tx.insertInto('credit_holdings').values({ user_id: u.id, project_id: project.id, origin: 'purchase', tons: 100, updated_at: now }).execute();
      await tx.insertInto('sessions').values({ token_hash: sha256(token), user_id: u.id, created_at: now, expires_at: now + 86_400_000, last_seen_at: now, revoked_at: null }).execute();
    });
    tokens.push(token);
  }
  await db.destroy();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}${API_BASE}`;
  await start(port);
  let restarts = 0;
  const acknowledged: string[] = [];
  let next = 0;
  const TOTAL = 36;
  const deadline = Date.now() + 200_000;
  const worker = async (w: number) => {
    while (next < TOTAL && Date.now() < deadline) {
      const i = next++;
      const key = `rc_${i}_${w}_${newToken().slice(0, 8)}`;
      while (Date.now() < deadline) {
        try {
          const res = await fetch(base + PATHS.creditRetire, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: tokens[w]!, 'Idempotency-Key': key },
            body: JSON.stringify({ project_id: project.id, tons: 1 + (i % 3), beneficiary: `Crash ${i}`, paypwd: PASSWORD }),
          });
          const body = (await res.json()) as { code: number; data: { id: string } };
          expect(body.code, JSON.stringify(body)).toBe(0);
          acknowledged.push(body.data.id);
          break;
        } catch (err) {
          if ((err as { name?: string }).name === 'AssertionError') throw err;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }
  };
  const killer = (async () => {
    while (acknowledged.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (let k = 0; k < 3 && next < TOTAL; k++) {
      await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 300)));
      await servers.stop(child!);
      await start(port);
      restarts++;
    }
  })();
  await Promise.all([...tokens.map((_, w) => worker(w)), killer]);
  expect(restarts).toBeGreaterThan(0);
  expect(acknowledged).toHaveLength(TOTAL);
  await servers.stop(child!, 'SIGTERM');

  const check = openDatabase(await databaseTarget(dataDir)).db;
  try {
    const retirements = await check.selectFrom('retirements').select(['id', 'tons']).where('project_id', '=', project.id).execute();
    const cancellations = await check.selectFrom('registry_cancellations').select(['retirement_id', 'recorded_at']).where('project_id', '=', project.id).execute();
    const units = await check.selectFrom('retirement_units').select(['retirement_id', 'first_unit', 'last_unit']).execute();
    // Every acknowledged retirement exists once; each retirement has its pending cancellation and its units,
    // and each cancellation its retirement.
    expect(new Set(acknowledged).size).toBe(TOTAL);
    expect(retirements.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
    expect(cancellations.map((c) => c.retirement_id).sort()).toEqual(retirements.map((r) => r.id).sort());
    expect(cancellations.every((c) => c.recorded_at === null)).toBe(true);
    for (const r of retirements) {
      const mine = units.filter((u) => u.retirement_id === r.id);
      expect(mine.reduce((n, u) => n + Number(u.last_unit) - Number(u.first_unit) + 1, 0), r.id).toBe(r.tons);
    }
    // And the units are the lowest of the block, each once.
    const all = units.flatMap((u) => Array.from({ length: Number(u.last_unit) - Number(u.first_unit) + 1 }, (_, k) => Number(u.first_unit) + k)).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, k) => range.range.first + k));
  } finally {
    await check.destroy();
  }
}, 300_000);
