// Batches of the group commit (db/tx.ts Batcher, writeTxBatched): jobs of one batcher waiting in a row run
// as one call of its `many`; a batch that fails as a whole is rolled back and each of its jobs runs alone.
// What must hold on SQLite and PostgreSQL alike: every caller is answered exactly once, whatever fails
// around the batch (the job before it, the batch's connection), and nothing of a failed batch remains.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dialectOf, openDatabase, type DB } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { observeWriteTx, writeTx, writeTxBatched, type Batcher, type Tx, type WriteScope } from '../../src/server/db/tx';
import { databaseTarget, dropDatabase } from '../helpers/database';

let dir: string;
let db: DB;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-batch-'));
  db = openDatabase(await databaseTarget(dir)).db;
  await migrateToLatest(db);
  await sql`create table gb_rows (n integer not null unique)`.execute(db);
});

afterAll(async () => {
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = async () => (await sql<{ n: number }>`select n from gb_rows order by n`.execute(db)).rows.map((r) => Number(r.n));

/** Each input a row of its own, all written ahead by the batch. */
const inserts: Batcher<number, number> = {
  async many(w, inputs) {
    const tx = w.tx;
    for (const n of inputs) {
      const q = sql`insert into gb_rows (n) values (${n})`;
      await w.ahead({ compile: () => q.compile(tx) });
    }
    return inputs.map((n) => ({ ok: true, result: n }));
  },
};
const insertAlone = (n: number) => async (tx: Tx) => {
  await sql`insert into gb_rows (n) values (${n})`.execute(tx);
  return n;
};

/** Settles `p`, or says 'hang' when it is still pending after `ms`. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then((v) => ({ status: 'fulfilled' as const, value: v }), (reason: unknown) => ({ status: 'rejected' as const, reason })), new Promise<{ status: 'hang' }>((r) => setTimeout(() => r({ status: 'hang' }), ms))]);

it('a batch behind a job whose connection is dropped by a write it sent ahead: every caller answered once', async () => {
  if (dialectOf(db) !== 'postgres') return;
  const answered: boolean[] = [];
  observeWriteTx(db, { tx: (_s, ok) => void answered.push(ok), group: () => undefined });
  try {
    // One tick: the queue is [kill, batch of 3]. The first job's code ends before its kill's answer comes
    // (it is checked once the next work starts); the batch is taken off the queue first.
    const kill = writeTx(db, async (tx, w) => {
      const q = sql`select pg_terminate_backend(pg_backend_pid())`;
      await w.ahead({ compile: () => q.compile(tx) });
      return -1;
    });
    const batch = [1, 2, 3].map((n) => writeTxBatched(db, inserts, 100 + n, insertAlone(100 + n)));
    const results = await Promise.all([kill, ...batch].map((p) => within(p, 10_000)));
    expect(results.map((r) => r.status)).not.toContain('hang');
    expect(results[0]!.status).toBe('rejected');
    const kept = results.slice(1).flatMap((r, i) => (r.status === 'fulfilled' ? [101 + i] : []));
    expect(await rows()).toEqual(kept);
    expect(answered).toHaveLength(4);
  } finally {
    observeWriteTx(db, { tx: () => undefined, group: () => undefined });
    await sql`delete from gb_rows`.execute(db);
  }
});

/** A batcher whose `many` counts its calls; `fail` picks how a batch containing input 13 fails. */
function failing(how: 'throw' | 'write' | 'kill') {
  const calls = { many: 0, alone: 0 };
  const batcher: Batcher<number, number> = {
    async many(w, inputs) {
      const tx = w.tx;
      calls.many++;
      for (const n of inputs) {
        if (n % 100 === 13 && how === 'throw') throw new Error('many refused');
        const q =
          n % 100 === 13 && how === 'kill'
            ? sql`select pg_terminate_backend(pg_backend_pid())`
            : sql`insert into gb_rows (n) values (${n % 100 === 13 && how === 'write' ? -1 : n})`; // -1 is there already
        await w.ahead({ compile: () => q.compile(tx) });
      }
      return inputs.map((n) => ({ ok: true, result: n }));
    },
  };
  const alone = (n: number) => async (tx: Tx) => {
    calls.alone++;
    if (n % 100 === 13) {
      if (how === 'throw') throw new Error('alone refused');
      if (how === 'kill') await sql`select pg_terminate_backend(pg_backend_pid())`.execute(tx);
      else await sql`insert into gb_rows (n) values (-1)`.execute(tx);
    }
    await sql`insert into gb_rows (n) values (${n})`.execute(tx);
    return n;
  };
  return { batcher, alone, calls };
}

it.each(['throw', 'write', 'kill'] as const)('a batch that fails as a whole (%s): each job runs alone, answered once, nothing of the batch left', async (how) => {
  if (how === 'kill' && dialectOf(db) !== 'postgres') return;
  await sql`insert into gb_rows (n) values (-1)`.execute(db);
  const answered: boolean[] = [];
  observeWriteTx(db, { tx: (_s, ok) => void answered.push(ok), group: () => undefined });
  try {
    const { batcher, alone, calls } = failing(how);
    const inputs = [10, 11, 12, 13, 14, 15].map((n) => 200 + n);
    const results = await Promise.all(inputs.map((n) => within(writeTxBatched(db, batcher, n, alone(n)), 10_000)));
    expect(results.map((r) => r.status)).not.toContain('hang');
    expect(results[3]!.status).toBe('rejected');
    const kept = results.flatMap((r, i) => (r.status === 'fulfilled' ? [inputs[i]!] : []));
    if (how !== 'kill') expect(kept).toEqual([210, 211, 212, 214, 215]);
    expect((await rows()).filter((n) => n >= 200)).toEqual(kept);
    expect(answered).toHaveLength(6);
    expect(calls.many).toBeGreaterThan(0);
  } finally {
    observeWriteTx(db, { tx: () => undefined, group: () => undefined });
    await sql`delete from gb_rows`.execute(db);
  }
});

it('a batch behind a job whose write sent ahead fails: that job refused alone, the batch commits', async () => {
  await sql`insert into gb_rows (n) values (-1)`.execute(db);
  try {
    const bad = writeTx(db, async (tx, w) => {
      const q = sql`insert into gb_rows (n) values (-1)`;
      await w.ahead({ compile: () => q.compile(tx) });
      return -1;
    });
    const batch = [1, 2, 3].map((n) => writeTxBatched(db, inserts, 300 + n, insertAlone(300 + n)));
    const results = await Promise.all([bad, ...batch].map((p) => within(p, 10_000)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((await rows()).filter((n) => n >= 300)).toEqual([301, 302, 303]);
  } finally {
    await sql`delete from gb_rows`.execute(db);
  }
});

it("records of a batch: a key taken meanwhile fails the batch; each job runs alone, the taken one refused, every other record holds its own claim", async () => {
  await db.insertInto('idempotency_keys').values({ user_id: 0, key: 'gb-taken', endpoint: '/gb', request_hash: 'h', state: 'done', response: 'null', created_at: 0 }).execute();
  const claim = (tx: Tx, key: string) =>
    tx
      .insertInto('idempotency_keys')
      .values({ user_id: 0, key, endpoint: '/gb', request_hash: 'h', state: 'done', response: 'null', created_at: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing());
  type Rec = { key: string; recorded: boolean; begin: () => Promise<void>; end: (w: WriteScope) => Promise<void>; undo: () => void; endMany: typeof endMany };
  const endMany = async (w: WriteScope, ends: readonly { record: unknown }[]) => {
    for (const { record } of ends) await (record as Rec).end(w);
  };
  const record = (key: string): Rec => {
    const r: Rec = {
      key,
      recorded: false,
      begin: async () => {
        if (r.recorded) throw new Error('a second effect transaction');
      },
      end: async (w: WriteScope) => {
        const tx = w.tx;
        await w.ahead(claim(tx, key), (res) => {
          if (Number(res.numAffectedRows ?? 0) === 0) throw new Error('key taken');
          r.recorded = true;
        });
      },
      undo: () => {
        r.recorded = false;
      },
      endMany,
    };
    return r;
  };
  const records = ['gb-1', 'gb-2', 'gb-taken', 'gb-4'].map(record);
  try {
    const results = await Promise.all(records.map((r, i) => within(writeTxBatched(db, inserts, 400 + i, insertAlone(400 + i), r), 10_000)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(records.map((r) => r.recorded)).toEqual([true, true, false, true]);
    expect((await rows()).filter((n) => n >= 400)).toEqual([400, 401, 403]);
    const keys = await db.selectFrom('idempotency_keys').select('key').where('endpoint', '=', '/gb').orderBy('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['gb-1', 'gb-2', 'gb-4', 'gb-taken']);
  } finally {
    await sql`delete from gb_rows`.execute(db);
  }
});
