// Batches (db/tx.ts Batcher, writeTxBatched): write transactions of one kind waiting for the same commit run
// as one call of their batcher, as if one after the other. What must hold on SQLite and PostgreSQL alike:
// each job gets its own outcome (a refusal writes nothing); a batch that throws, or whose write fails, leaves
// nothing and each of its jobs then runs alone, answered once; a job of another kind between two batches
// sees the first and is seen by the second; effect records end together, and a batch whose records cannot
// end runs alone. Then the buy's batch (modules/order/purchase.ts `purchases`): one buyer's concurrent buys
// stop exactly at the balance and at the monthly limit, mixed projects and buyers sell exactly the supply,
// order ids and numbers are unique and consecutive, fund logs chain, the books balance, and a buy whose
// write fails inside a batch is refused alone while the others are placed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderUsageProblems } from '../../src/server/modules/order/usage';
import { dialectOf, openDatabase, type DB } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { observeWriteTx, writeTx, writeTxBatched, type Batcher, type EffectRecord, type Tx, type WriteScope } from '../../src/server/db/tx';
import { checkLedger } from '../../src/server/ledger/ledger';
import { commitPurchase } from '../../src/server/modules/order/purchase';
import type { User } from '../../src/server/modules/session';
import { AppError } from '../../src/server/lib/http';
import { databaseTarget, dropDatabase } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, orderApi, walletOfUser } from './market-helpers';

describe('the group commit runs batches', () => {
  let dir: string;
  let db: DB;
  const batches: { jobs: number; held: boolean }[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-batch-'));
    db = openDatabase(await databaseTarget(dir)).db;
    await migrateToLatest(db);
    await sql`create table gb_rows (n integer not null unique)`.execute(db);
    await sql`create table gb_counter (id integer primary key, v integer not null)`.execute(db);
    await sql`insert into gb_counter (id, v) values (1, 0)`.execute(db);
    observeWriteTx(db, { tx: () => undefined, group: () => undefined, batch: (jobs, held) => void batches.push({ jobs, held }) });
  });

  afterAll(async () => {
    await db.destroy();
    await dropDatabase(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows = async () => (await sql<{ n: number }>`select n from gb_rows order by n`.execute(db)).rows.map((r) => Number(r.n));
  const reset = async () => {
    await sql`delete from gb_rows`.execute(db);
    batches.length = 0;
  };
  const insert = (w: WriteScope, n: number) => w.ahead({ compile: () => sql`insert into gb_rows (n) values (${n})`.compile(w.tx) });

  /** A batcher that refuses every fifth input, writes a row per accepted one (sent ahead), and answers i * 10. */
  function rowsBatcher(opts: { throwAfterWrites?: boolean; duplicateWrite?: boolean } = {}) {
    const calls: number[][] = [];
    const batcher: Batcher<number, number> = {
      async many(w, inputs) {
        calls.push([...inputs]);
        const outcomes = [];
        for (const i of inputs) {
          if (i % 5 === 0) {
            outcomes.push({ ok: false as const, err: new Error(`refused ${i}`) });
            continue;
          }
          await insert(w, i);
          outcomes.push({ ok: true as const, result: i * 10 });
        }
        if (opts.duplicateWrite) await insert(w, inputs.find((i) => i % 5 !== 0)!); // a unique violation, sent ahead
        if (opts.throwAfterWrites) throw new Error('the batch failed');
        return outcomes;
      },
    };
    const alone = (i: number) => async (_tx: Tx, w: WriteScope) => {
      if (i % 5 === 0) throw new Error(`refused ${i} alone`);
      await insert(w, 1000 + i);
      return -i;
    };
    return { batcher, calls, alone };
  }

  it('30 jobs waiting together run as one batch: each its own outcome, refusals write nothing', async () => {
    await reset();
    const { batcher, calls, alone } = rowsBatcher();
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => writeTxBatched(db, batcher, i, alone(i))));
    expect(calls).toEqual([Array.from({ length: 30 }, (_, i) => i)]);
    expect(batches).toEqual([{ jobs: 30, held: true }]);
    for (const [i, r] of results.entries()) {
      if (i % 5 === 0) expect(r.status === 'rejected' && String(r.reason)).toContain(`refused ${i}`);
      else expect(r).toEqual({ status: 'fulfilled', value: i * 10 });
    }
    expect(await rows()).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 5 !== 0));
  });

  it('a batch that throws leaves nothing, and each of its jobs runs alone, answered once', async () => {
    await reset();
    const { batcher, calls, alone } = rowsBatcher({ throwAfterWrites: true });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => writeTxBatched(db, batcher, i, alone(i))));
    expect(calls).toHaveLength(1);
    expect(batches).toEqual([{ jobs: 12, held: false }]);
    for (const [i, r] of results.entries()) {
      if (i % 5 === 0) expect(r.status === 'rejected' && String(r.reason)).toContain(`refused ${i} alone`);
      else expect(r).toEqual({ status: 'fulfilled', value: -i });
    }
    expect(await rows()).toEqual(Array.from({ length: 12 }, (_, i) => i).filter((i) => i % 5 !== 0).map((i) => 1000 + i));
  });

  it('a write the batch sent ahead fails: the batch leaves nothing, and each of its jobs runs alone', async () => {
    await reset();
    const { batcher, calls, alone } = rowsBatcher({ duplicateWrite: true });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => writeTxBatched(db, batcher, i, alone(i))));
    expect(calls).toHaveLength(1);
    expect(batches).toEqual([{ jobs: 12, held: false }]);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual(
      Array.from({ length: 12 }, (_, i) => i).filter((i) => i % 5 !== 0).map((i) => -i),
    );
    expect(await rows()).toEqual(Array.from({ length: 12 }, (_, i) => i).filter((i) => i % 5 !== 0).map((i) => 1000 + i));
  });

  it('a job of another kind between two batches sees the first and is seen by the second', async () => {
    await reset();
    await sql`update gb_counter set v = 0 where id = 1`.execute(db);
    const counting: Batcher<number, number> = {
      async many({ tx }, inputs) {
        // Read, then write: a batch that did not see what ran before it would lose counts.
        const { v } = (await sql<{ v: number }>`select v from gb_counter where id = 1`.execute(tx)).rows[0]!;
        await sql`update gb_counter set v = ${Number(v) + inputs.length} where id = 1`.execute(tx);
        return inputs.map((i) => ({ ok: true as const, result: Number(v) + inputs.indexOf(i) + 1 }));
      },
    };
    const aloneNever = () => () => Promise.reject(new Error('ran alone'));
    const first = Array.from({ length: 10 }, (_, i) => writeTxBatched(db, counting, i, aloneNever()));
    const between = writeTxBatched(db, { many: () => Promise.reject(new Error('not a batch')) }, 0, async (tx) => {
      const { v } = (await sql<{ v: number }>`select v from gb_counter where id = 1`.execute(tx)).rows[0]!;
      await sql`update gb_counter set v = ${Number(v) + 1000} where id = 1`.execute(tx);
      return Number(v);
    });
    const second = Array.from({ length: 10 }, (_, i) => writeTxBatched(db, counting, i, aloneNever()));
    expect(await Promise.all(first)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await between).toBe(10);
    expect(await Promise.all(second)).toEqual(Array.from({ length: 10 }, (_, i) => 1011 + i));
    expect(batches).toEqual([
      { jobs: 10, held: true },
      { jobs: 10, held: true },
    ]);
  });

  it("effect records end together; when one cannot, the batch is undone and each job ends alone", async () => {
    await reset();
    const { batcher, alone } = rowsBatcher();
    const log: string[] = [];
    const endMany = async (w: WriteScope, ends: readonly { record: EffectRecord; result: unknown }[]) => {
      log.push(`endMany ${ends.length}`);
      for (const { result } of ends) await insert(w, 500 + Number(result) / 10);
      if (ends.some(({ result }) => result === 70)) throw new Error('key taken');
    };
    const record = (i: number): EffectRecord => ({
      begin: async () => undefined,
      end: async (w) => {
        log.push(`end ${i}`);
        await insert(w, 2000 + i);
      },
      undo: () => void log.push(`undo ${i}`),
      endMany,
    });
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => writeTxBatched(db, batcher, i, alone(i), record(i))));
    expect(batches).toEqual([{ jobs: 9, held: false }]);
    expect(log.filter((l) => l.startsWith('endMany'))).toEqual(['endMany 7']); // 0 and 5 refused: no record to end
    // Every record forgot what the batch did (on PostgreSQL a job may also be undone when the one before it
    // alone fails and it runs again: undo() forgets, however often).
    expect([...new Set(log.filter((l) => l.startsWith('undo')))].sort()).toEqual(Array.from({ length: 9 }, (_, i) => `undo ${i}`).sort());
    // Alone, each accepted job ended once (end()); the refused ones never.
    expect(log.filter((l) => l.startsWith('end ')).sort()).toEqual([1, 2, 3, 4, 6, 7, 8].map((i) => `end ${i}`).sort());
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 9 }, (_, i) => (i % 5 === 0 ? 'rejected' : 'fulfilled')));
    expect(await rows()).toEqual([...[1, 2, 3, 4, 6, 7, 8].map((i) => 1000 + i), ...[1, 2, 3, 4, 6, 7, 8].map((i) => 2000 + i)]);
  });
});

describe('buys in batches', () => {
  let s: TestServer;
  const batches: { jobs: number; held: boolean }[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    observeWriteTx(s.db, { tx: () => undefined, group: () => undefined, batch: (jobs, held) => void batches.push({ jobs, held }) });
  });
  afterAll(async () => {
    expect(await orderUsageProblems(s.db)).toEqual([]);
    await s.close();
  });

  const userRow = async (id: number) => (await s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as User;
  const buy = (user: User, projectId: number, tons = 1) => commitPurchase(s.running.deps, user, { project_id: projectId, tons, password: '' });
  const refusedWith = (r: PromiseSettledResult<unknown>) => (r.status === 'rejected' && r.reason instanceof AppError ? r.reason.key : r.status === 'rejected' ? String(r.reason) : 'ok');

  /** The user's fund logs of one account in id order chain: each balance_after is the one before plus its amount. */
  async function expectChained(userId: number, account: string) {
    const logs = await s.db.selectFrom('fund_logs').select(['amount', 'balance_after']).where('owner_id', '=', userId).where('account_name', '=', account).orderBy('id').execute();
    let balance = 0;
    for (const log of logs) {
      balance += log.amount;
      expect(log.balance_after).toBe(balance);
    }
    return balance;
  }

  it("one buyer's 20 buys at once, money for 7: exactly 7 placed, the rest insufficient_balance, fund logs chain", async () => {
    batches.length = 0;
    const projectId = await makeProject(s, { total_tons: 1000, price: 1000 });
    const { id } = await makeUser(s, { cents: 7000 });
    const user = await userRow(id);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => buy(user, projectId)));
    expect(results.map(refusedWith).sort()).toEqual([...Array(7).fill('ok'), ...Array(13).fill('insufficient_balance')].sort());
    expect(batches.some((b) => b.held && b.jobs > 1)).toBe(true);
    expect((await walletOfUser(s, id)).available).toBe(0);
    expect(await expectChained(id, 'available')).toBe(0);
    const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(p.remaining_tons).toBe(993);
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('a monthly limit of 5: 20 buys at once place exactly 5, the rest monthly_limit', async () => {
    const projectId = await makeProject(s, { monthly_limit: 5, total_limit: 50 });
    const { id } = await makeUser(s, { cents: 1_000_000 });
    const user = await userRow(id);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => buy(user, projectId)));
    expect(results.map(refusedWith).sort()).toEqual([...Array(5).fill('ok'), ...Array(15).fill('monthly_limit')].sort());
    expect(await expectChained(id, 'available')).toBe(1_000_000 - 5 * 1000);
  });

  it('mixed buyers and projects: exactly the supply sold, order ids and numbers unique and consecutive, the books balance', async () => {
    batches.length = 0;
    const scarce = await makeProject(s, { total_tons: 3 });
    const plenty = await makeProject(s, { total_tons: 100 });
    const users = await Promise.all(Array.from({ length: 10 }, () => makeUser(s, { cents: 100_000 }).then((u) => userRow(u.id))));
    const before = Number((await s.db.selectFrom('orders').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow()).m ?? 0);
    const results = await Promise.allSettled(users.flatMap((u) => [buy(u, scarce), buy(u, plenty, 2)]));
    const outcomes = results.map(refusedWith);
    expect(outcomes.filter((o, i) => i % 2 === 0 && o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o, i) => i % 2 === 0 && o !== 'ok').every((o) => o === 'insufficient_remaining' || o === 'project_full')).toBe(true);
    expect(outcomes.filter((o, i) => i % 2 === 1)).toEqual(Array(10).fill('ok'));
    expect(batches.some((b) => b.held && b.jobs > 1)).toBe(true);
    const orders = await s.db.selectFrom('orders').select(['id', 'order_no', 'user_id', 'project_id', 'tons', 'total']).where('id', '>', before).orderBy('id').execute();
    expect(orders.map((o) => o.id)).toEqual(Array.from({ length: 13 }, (_, i) => before + 1 + i));
    expect(new Set(orders.map((o) => o.order_no)).size).toBe(13);
    const answered = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answered.map((o) => o.id).sort((a, b) => a - b)).toEqual(orders.map((o) => o.id));
    for (const o of answered) expect(orders.find((row) => row.id === o.id)).toMatchObject({ order_no: o.order_no, project_id: o.project_id, tons: o.tons, total: o.total });
    const left = await s.db.selectFrom('projects').select(['id', 'remaining_tons']).where('id', 'in', [scarce, plenty]).orderBy('id').execute();
    expect(left.map((p) => p.remaining_tons)).toEqual([0, 80]);
    for (const u of users) await expectChained(u.id, 'available');
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('over HTTP with Idempotency-Keys: the keys of a batch are claimed together, and a retry replays its first answer', async () => {
    batches.length = 0;
    const projectId = await makeProject(s, { total_tons: 100 });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => makeUser(s, { cents: 100_000 })));
    const api = orderApi(s);
    const keys = buyers.map(() => newKey());
    // A write transaction holds the group for a while, so the buys (each past its password check at its own
    // pace) wait for the same commit behind it: without it, whether two meet depends on the machine.
    const blocker = writeTx(s.db, () => new Promise((resolve) => setTimeout(resolve, 500)));
    const first = await Promise.all(buyers.map((u, i) => api.buy(u, projectId, 1, { key: keys[i] })));
    await blocker;
    expect(first.map((r) => r.code)).toEqual(Array(12).fill(0));
    // On SQLite the group holds the one connection, so the requests' session and key reads wait behind it
    // and reach the queue one at a time: there a batch over HTTP forms only now and then.
    if (dialectOf(s.db) === 'postgres') expect(batches.some((b) => b.held && b.jobs > 1)).toBe(true);
    expect(batches.every((b) => b.held)).toBe(true);
    const again = await Promise.all(buyers.map((u, i) => api.buy(u, projectId, 1, { key: keys[i] })));
    expect(again.map((r) => r.data)).toEqual(first.map((r) => r.data));
    const stored = await s.db.selectFrom('idempotency_keys').select(['key', 'response']).where('key', 'in', keys).execute();
    expect(stored).toHaveLength(12);
    for (const [i, key] of keys.entries()) expect(JSON.parse(stored.find((k) => k.key === key)!.response!)).toEqual(first[i]!.data);
    const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(p.remaining_tons).toBe(88);
  });

  it("a buy whose write fails inside a batch is refused alone; the others are placed and the buyer's money is untouched", async () => {
    batches.length = 0;
    const projectId = await makeProject(s, { total_tons: 100 });
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(s, { cents: 100_000 }).then((u) => userRow(u.id))));
    const victim = users[3]!;
    const postgres = dialectOf(s.db) === 'postgres';
    if (postgres) {
      await sql
        .raw(
          `create function gb_refuse() returns trigger language plpgsql as $$ begin if new.user_id = ${victim.id} then raise exception 'refused by test'; end if; return new; end $$;
           create trigger gb_refuse before insert on orders for each row execute function gb_refuse();`,
        )
        .execute(s.db);
    } else {
      await sql.raw(`create trigger gb_refuse before insert on orders when new.user_id = ${victim.id} begin select raise(abort, 'refused by test'); end`).execute(s.db);
    }
    try {
      const results = await Promise.allSettled(users.map((u) => buy(u, projectId)));
      expect(results.map((r) => r.status)).toEqual(users.map((u) => (u === victim ? 'rejected' : 'fulfilled')));
      expect(String((results[3] as PromiseRejectedResult).reason)).toContain('refused by test');
      expect(batches.some((b) => !b.held && b.jobs > 1)).toBe(true);
      expect((await walletOfUser(s, victim.id)).available).toBe(100_000);
      const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', projectId).executeTakeFirstOrThrow();
      expect(p.remaining_tons).toBe(93);
      expect((await checkLedger(s.db)).ok).toBe(true);
    } finally {
      await sql.raw(postgres ? 'drop trigger gb_refuse on orders; drop function gb_refuse()' : 'drop trigger gb_refuse').execute(s.db);
    }
  });
});
