// A restart at the wrong moment (docs/decisions/0035-monthly-offset.md): the real server runs as a child
// process while its scheduler buys a month of many plans, and is killed with SIGKILL at moments taken from
// what it has committed, then started again on the same data. Afterwards every plan has exactly one order
// for the month, one outcome row naming it and one idempotency key, and the ledger balances.
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { checkLedger, openPlatformAccounts, openUserAccounts, PLATFORM, post } from '../../src/server/ledger/ledger';
import { sgtMonth } from '../../src/shared/offset';
import { insertMember, makeTmpDir, serverProcesses } from '../helpers/server';
import { databaseTarget } from '../helpers/database';
import { holdTons } from '../helpers/inventory';

const dataDir = makeTmpDir('canopy-offset-crash-');
const servers = serverProcesses(dataDir);
afterAll(() => servers.close());

const USERS = 20;
const PLANS_PER_USER = 10;
const PLANS = USERS * PLANS_PER_USER;

async function seed(db: DB, now: number): Promise<void> {
  await migrateToLatest(db);
  await openPlatformAccounts(db);
  const project = await db
    .insertInto('projects')
    .values({
      name: 'Offset crash', name_cn: '', location: 'Test', type: 'forestry', standard: 'VCS', status: 'in_progress', price: 100, presale_price: null,
      min_tons: 1, max_tons: 10, total_tons: 100_000, remaining_tons: 100_000, selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000,
      cycle_value: 30, cycle_unit: 'days', yield_bp: 0, required_grade: 0, monthly_limit: 100_000, total_limit: 100_000, company: '',
      registry_id: '', methodology: '', vintage: 2025, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await holdTons(db, project.id, 100_000, now);
  for (let i = 0; i < USERS; i++) {
    await writeTx(db, async (tx) => {
      const u = { id: await insertMember(tx, { email: `offset${i}@example.sg`, first_name: 'Offset', last_name: String(i), invite_code: `OFST${String(i).padStart(2, '0')}`, withdraw_password_hash: 'x' }, now) };
      await openUserAccounts(tx, u.id);
      await post(tx, { kind: 'topup', memo: 'offset crash test', now, postings: [{ owner: PLATFORM, account: 'bank', amount: -1_000_000 }, { owner: u.id, account: 'available', amount: 1_000_000 }] });
      const plans = Array.from({ length: PLANS_PER_USER }, (_, k) => ({
        user_id: u.id, made_by: u.id, project_id: project.id, tons: 1 + (k % 3), day: 1, status: 'active' as const, consent_text: 'test', consent_at: now,
        next_run_at: now - 60_000 - k, created_at: now, updated_at: now,
      }));
      await tx.insertInto('offset_plans').values(plans).execute();
    });
  }
}

const decided = async (db: DB) => Number((await db.selectFrom('offset_runs').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);

it('kill -9 while the month is bought: one order, one outcome and one key a plan', async () => {
  const { db } = openDatabase(await databaseTarget(dataDir));
  const now = Date.now();
  await seed(db, now);
  // Kill when the committed outcomes pass each mark: the first while the start's own first run (the one it
  // waits for before it listens) is under way, the others mid-stream.
  const marks = [10, 70, 130];
  let kills = 0;
  const atKills: number[] = [];
  const deadline = Date.now() + 240_000;
  for (const mark of [...marks, PLANS]) {
    const child = await servers.spawn();
    while ((await decided(db)) < mark && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await servers.stop(child);
    if (mark < PLANS) {
      kills++;
      atKills.push(await decided(db));
    }
  }
  expect(kills).toBe(marks.length);
  // Killed with the month unfinished: a restart had work left to do.
  expect(atKills.every((n) => n < PLANS), JSON.stringify(atKills)).toBe(true);
  const month = sgtMonth(now - 60_000);
  const runs = await db.selectFrom('offset_runs').selectAll().execute();
  expect(runs).toHaveLength(PLANS);
  expect(runs.every((r) => r.outcome === 'placed' && r.month === month && r.order_id !== null)).toBe(true);
  const orders = await db.selectFrom('orders').select(['id', 'user_id', 'tons']).execute();
  expect(orders).toHaveLength(PLANS);
  expect(new Set(runs.map((r) => r.order_id))).toEqual(new Set(orders.map((o) => o.id)));
  const keys = await db.selectFrom('idempotency_keys').select('key').where('endpoint', '=', '/offset/month').execute();
  expect(new Set(keys.map((k) => k.key)).size).toBe(PLANS);
  const plans = await db.selectFrom('offset_plans').select(['next_run_at']).execute();
  expect(plans.every((p) => p.next_run_at !== null && p.next_run_at > now)).toBe(true);
  expect((await checkLedger(db)).ok).toBe(true);
  await db.destroy();
}, 300_000);
