// Bursts of purchases through the group commit on PostgreSQL (its jobs' writes pipelined, db/tx.ts), on two
// instances of one database: one key sent 40 times makes one order; 40 keys for 5 tons left sell 5; the
// lock holder's connection terminated during a burst leaves every request answered, nothing half-done and
// the process up (connection.ts); a write sent ahead that fails refuses only its own purchase. PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { checkLedger } from '../../src/server/ledger/ledger';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { onPostgres } from '../helpers/database';
import { makeProject, makeUser, newKey, TRADE_PASSWORD, type MarketUser } from './market-helpers';

describe.skipIf(!onPostgres)('purchase bursts on two instances of one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const dataDir = makeTmpDir('canopy-review-');
    const env = { DATA_DIR: dataDir, HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', HASH_CONCURRENCY_USER: '64' };
    a = await startTestServer(env);
    b = await startTestServer(env);
  });
  afterAll(async () => {
    await b.running.close();
    await a.close();
  });
  const buy = async (s: TestServer, u: MarketUser, pid: number, key: string, tons = 1) => {
    const res = await fetch(s.url + API_BASE + PATHS.orderBuy, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': key },
      body: JSON.stringify({ project_id: pid, tons, password: TRADE_PASSWORD }),
    });
    return (await res.json()) as { code: number; data?: { id: number } };
  };
  const state = async (pid: number) => {
    const p = await a.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    const orders = await a.db.selectFrom('orders').select(['id', 'user_id']).where('project_id', '=', pid).execute();
    const entries = await a.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'order_buy').execute();
    return { remaining: p.remaining_tons, orders, entries: entries.length };
  };

  for (const two of [false, true]) {
    // Every other request to the second instance, or all to the first.
    const on = (i: number) => (two && i % 2 ? b : a);
    it(`${two ? 'two instances' : 'one instance'}: 40 identical buys with one key make one order`, async () => {
      const pid = await makeProject(a, { total_tons: 1000, remaining_tons: 5 });
      const u = await makeUser(a, { cents: 1_000_000 });
      const before = await state(pid);
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => buy(on(i), u, pid, key)));
      expect(answers.map((r) => r.code)).toEqual(Array(40).fill(0));
      expect(new Set(answers.map((r) => r.data!.id)).size).toBe(1);
      const after = await state(pid);
      expect(after.remaining).toBe(4);
      expect(after.orders).toHaveLength(1);
      expect(after.entries - before.entries).toBe(1);
      const report = await checkLedger(a.db);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    }, 60_000);

    it(`${two ? 'two instances' : 'one instance'}: 40 buys with different keys for 5 tons left sell 5`, async () => {
      const pid = await makeProject(a, { total_tons: 1000, remaining_tons: 5 });
      const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(a, { cents: 1_000_000 })));
      const before = await state(pid);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => buy(on(i), users[i % 8]!, pid, newKey())));
      expect(answers.filter((r) => r.code === 0)).toHaveLength(5);
      const after = await state(pid);
      expect(after.remaining).toBe(0);
      expect(after.orders).toHaveLength(5);
      expect(after.entries - before.entries).toBe(5);
      const report = await checkLedger(a.db);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    }, 60_000);
  }

  it('a burst while the lock holder\'s connection is terminated (3 times): every request answered, nothing half-done', async () => {
    const pid = await makeProject(a, { total_tons: 1000, remaining_tons: 30 });
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(a, { cents: 1_000_000 })));
    const before = await state(pid);
    let killed = 0;
    const killer = (async () => {
      for (let t = 0; t < 200 && killed < 3; t++) {
        // The write lock's holder, if it is one of these servers' (it has touched a table of this schema):
        // other test files share the database and its lock.
        const r = await sql<{ k: boolean }>`
          select pg_terminate_backend(l.pid) as k from pg_locks l
          where l.locktype = 'advisory' and l.granted and l.pid <> pg_backend_pid()
            and l.database = (select oid from pg_database where datname = current_database())
            and exists (
              select 1 from pg_locks t join pg_class c on c.oid = t.relation
              where t.pid = l.pid and t.database = l.database and c.relnamespace = current_schema()::regnamespace
            )`.execute(a.db);
        killed += r.rows.filter((x) => x.k).length;
        await new Promise((res) => setTimeout(res, 5));
      }
    })();
    const keys = Array.from({ length: 40 }, () => newKey());
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => buy(i % 2 ? b : a, users[i % 8]!, pid, keys[i]!)));
    await killer;
    expect(killed).toBeGreaterThan(0);
    const after = await state(pid);
    const okIds = answers.filter((r) => r.code === 0).map((r) => r.data!.id);
    expect(after.orders.map((o) => o.id).sort()).toEqual(expect.arrayContaining(okIds));
    expect(after.orders.length).toBe(30 - after.remaining);
    expect(after.entries - before.entries).toBe(after.orders.length);
    const report = await checkLedger(a.db);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    // Retries with the same keys: each answered, still no oversell, one order per key.
    const retry = await Promise.all(Array.from({ length: 40 }, (_, i) => buy(i % 2 ? a : b, users[i % 8]!, pid, keys[i]!)));
    for (const [i, r] of retry.entries()) if (answers[i]!.code === 0) expect(r.data?.id).toBe(answers[i]!.data!.id);
    const final = await state(pid);
    expect(final.orders.length).toBe(30 - final.remaining);
    expect(final.entries - before.entries).toBe(final.orders.length);
    expect((await checkLedger(a.db)).ok).toBe(true);
  }, 90_000);

  it('an ahead write of one purchase fails (trigger on its order row): that buyer refused and left untouched, the others sold', async () => {
    const pid = await makeProject(a, { total_tons: 1000, remaining_tons: 30 });
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(a, { cents: 1_000_000 })));
    const bad = users[3]!.id;
    await sql.raw(`create or replace function review_fail() returns trigger language plpgsql as $$ begin if new.user_id = ${bad} then raise exception 'review injected'; end if; return new; end $$`).execute(a.db);
    await sql.raw(`create trigger review_fail before insert on orders for each row execute function review_fail()`).execute(a.db);
    try {
      const before = await state(pid);
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => buy(i % 2 ? b : a, users[i % 8]!, pid, newKey())));
      for (const [i, r] of answers.entries()) expect(r.code === 0).toBe(i % 8 !== 3);
      const after = await state(pid);
      expect(after.orders).toHaveLength(21);
      expect(after.remaining).toBe(9);
      expect(after.orders.some((o) => o.user_id === bad)).toBe(false);
      expect(after.entries - before.entries).toBe(21);
      const w = await a.db.selectFrom('ledger_accounts').select('balance').where('owner_id', '=', bad).where('name', '=', 'available').executeTakeFirstOrThrow();
      expect(w.balance).toBe(1_000_000);
      expect((await checkLedger(a.db)).ok).toBe(true);
    } finally {
      await sql.raw('drop trigger review_fail on orders').execute(a.db);
    }
  }, 60_000);
});
