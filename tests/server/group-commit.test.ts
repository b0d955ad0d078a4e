// Group commit (db/tx.ts): concurrent write transactions share one durable COMMIT, each in its own
// SAVEPOINT. What must hold on SQLite and PostgreSQL alike: a job that fails leaves nothing and does not
// take the others down; jobs are serial (each sees the ones before it); nobody is answered before the
// commit that carries them; a failed COMMIT fails every job it carried, and none of them exists. A write
// sent ahead (WriteScope.ahead: on PostgreSQL pipelined, its answer not waited for) commits and rolls back with
// its job, and its failure is its job's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, openDatabase, type DB } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { observeWriteTx, writeTx, type Tx, type WriteScope } from '../../src/server/db/tx';
import { databaseTarget, dropDatabase } from '../helpers/database';

let dir: string;
let db: DB;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-group-'));
  db = openDatabase(await databaseTarget(dir)).db;
  await migrateToLatest(db);
  await sql`create table gc_rows (n integer not null unique)`.execute(db);
  await sql`create table gc_counter (id integer primary key, v integer not null)`.execute(db);
  await sql`insert into gc_counter (id, v) values (1, 0)`.execute(db);
});

afterAll(async () => {
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = async () => (await sql<{ n: number }>`select n from gc_rows order by n`.execute(db)).rows.map((r) => Number(r.n));

it('40 writes at once: the failing ones leave nothing, the others all commit', async () => {
  const results = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) =>
      writeTx(db, async (tx) => {
        await sql`insert into gc_rows (n) values (${i})`.execute(tx);
        if (i % 3 === 0) throw new Error(`refused ${i}`);
        // A statement error inside a job (a unique violation) is that job's failure only.
        if (i % 3 === 1 && i > 30) await sql`insert into gc_rows (n) values (${i - 2})`.execute(tx); // i - 2 committed earlier in the run
        return i;
      }),
    ),
  );
  const kept = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
  const expected = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 !== 0 && !(i % 3 === 1 && i > 30));
  expect(kept).toEqual(expected);
  for (const [i, r] of results.entries()) {
    if (i % 3 === 0) expect(r.status === 'rejected' && String(r.reason)).toContain(`refused ${i}`);
  }
  expect(await rows()).toEqual(expected);
  await sql`delete from gc_rows`.execute(db);
});

it('jobs are serial: 40 read-then-write increments at once count to 40', async () => {
  await Promise.all(
    Array.from({ length: 40 }, () =>
      writeTx(db, async (tx) => {
        const { v } = (await sql<{ v: number }>`select v from gc_counter where id = 1`.execute(tx)).rows[0]!;
        await sql`update gc_counter set v = ${Number(v) + 1} where id = 1`.execute(tx);
      }),
    ),
  );
  const { v } = (await sql<{ v: number }>`select v from gc_counter where id = 1`.execute(db)).rows[0]!;
  expect(Number(v)).toBe(40);
});

it('an answer never precedes its commit: each resolved job is visible from another connection', async () => {
  const other = openDatabase(await databaseTarget(dir)).db;
  try {
    const seen = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await writeTx(db, (tx) => sql`insert into gc_rows (n) values (${1000 + i})`.execute(tx));
        const r = await sql<{ c: number }>`select count(*) as c from gc_rows where n = ${1000 + i}`.execute(other);
        return Number(r.rows[0]!.c);
      }),
    );
    expect(seen).toEqual(Array(20).fill(1));
  } finally {
    await other.destroy();
    await sql`delete from gc_rows`.execute(db);
  }
});

it('a COMMIT that fails fails every job it carried, and none of them exists', async () => {
  // A deferred constraint is checked only at COMMIT: one job breaks it, so the shared commit fails.
  // (Same SQL on both databases; SQLite enforces it because connection.ts turns foreign_keys on.)
  await sql`create table gc_parent (id integer primary key)`.execute(db);
  await sql`create table gc_child (p integer references gc_parent (id) deferrable initially deferred)`.execute(db);
  const jobs = Array.from({ length: 10 }, (_, i) =>
    writeTx(db, async (tx) => {
      await sql`insert into gc_rows (n) values (${2000 + i})`.execute(tx);
      if (i === 5) await sql`insert into gc_child (p) values (42)`.execute(tx); // no parent 42
      return i;
    }),
  );
  const results = await Promise.allSettled(jobs);
  // They were all waiting when the commit began, so they share it unless it reached its time limit first
  // (a loaded machine): the jobs before that boundary commit in an earlier group. Whatever the split, the
  // failed commit's group is a run of jobs around 5, every one of them refused with the commit's error and
  // none written; every job answered ok is written.
  const refused = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
  expect(refused).toContain(5);
  expect(refused).toEqual(Array.from({ length: refused.length }, (_, k) => refused[0]! + k));
  for (const i of refused) expect(String((results[i] as PromiseRejectedResult).reason)).toMatch(/foreign key|FOREIGN KEY/);
  const kept = results.flatMap((r, i) => (r.status === 'fulfilled' ? [2000 + i] : []));
  expect(await rows()).toEqual(kept);
  await sql`delete from gc_rows`.execute(db);
  // And the next write works.
  expect(await writeTx(db, async (tx) => (await sql`insert into gc_rows (n) values (3000)`.execute(tx), 'ok'))).toBe('ok');
  expect(await rows()).toEqual([3000]);
});

describe('writes sent ahead (WriteScope.ahead: on PostgreSQL pipelined, the job does not wait for their answer)', () => {
  const event = (tx: Tx, n: number) => tx.insertInto('live_events').values({ user_id: null, payload: `gc-${n}`, created_at: n });
  const events = async () => (await db.selectFrom('live_events').select('payload').where('payload', 'like', 'gc-%').orderBy('id').execute()).map((r) => r.payload);
  const claim = (tx: Tx, key: string) =>
    tx
      .insertInto('idempotency_keys')
      .values({ user_id: 0, key, endpoint: '/gc', request_hash: 'h', state: 'done', response: 'null', created_at: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing());

  it('commit with their job, in the order sent, and what follows them sees them', async () => {
    await writeTx(db, async (tx, w) => {
      await w.ahead(event(tx, 1));
      await w.ahead(event(tx, 2));
      const seen = await tx.selectFrom('live_events').select('payload').where('payload', 'in', ['gc-1', 'gc-2']).orderBy('id').execute();
      expect(seen.map((r) => r.payload)).toEqual(['gc-1', 'gc-2']);
      const r = await claim(tx, 'gc-key-1').executeTakeFirst();
      expect(Number(r.numInsertedOrUpdatedRows)).toBe(1);
      await w.ahead(event(tx, 3)); // nothing follows this one: the group waits for it before the commit
    });
    expect(await events()).toEqual(['gc-1', 'gc-2', 'gc-3']);
  });

  it('PostgreSQL: the job goes on before the answer comes; the group waits for it before the job counts as done', async () => {
    let answered = false;
    let answeredWhenSent = true;
    await writeTx(db, async (tx, w) => {
      await w.ahead(event(tx, 7), () => {
        answered = true;
      });
      answeredWhenSent = answered;
    });
    // SQLite has no round trip to save: the write runs and is checked at once.
    expect(answeredWhenSent).toBe(dialectOf(db) === 'sqlite');
    expect(answered).toBe(true);
    expect(await events()).toContain('gc-7');
  });

  it('roll back with their job: a job refused after sending them leaves none, the jobs beside it keep theirs', async () => {
    const results = await Promise.allSettled(
      [10, 11, 12].map((n) =>
        writeTx(db, async (tx, w) => {
          await w.ahead(event(tx, n));
          if (n === 11) throw new Error('refused');
          await claim(tx, `gc-key-${n}`).execute();
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const after = await events();
    expect(after).toContain('gc-10');
    expect(after).not.toContain('gc-11');
    expect(after).toContain('gc-12');
  });

  it('a write sent ahead that fails refuses its job with its own error, not with what the statements after it met', async () => {
    await sql`insert into gc_rows (n) values (5000)`.execute(db);
    const results = await Promise.allSettled(
      [20, 21, 22].map((n) =>
        writeTx(db, async (tx, w) => {
          await w.ahead(event(tx, n));
          // 21: a unique violation sent ahead; the claim after it finds the transaction aborted.
          const insert = sql`insert into gc_rows (n) values (${n === 21 ? 5000 : n + 5000})`;
          await w.ahead({ compile: () => insert.compile(tx) });
          await claim(tx, `gc-key-${n}`).execute();
          return n;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const err = (results[1] as PromiseRejectedResult).reason as { code?: string; message?: string };
    // SQLite: the constraint error itself; PostgreSQL: 23505, not 25P02 (in failed transaction).
    expect(String(err.code ?? err.message)).toMatch(/23505|UNIQUE|unique/);
    const after = await events();
    expect(after).toEqual(expect.arrayContaining(['gc-20', 'gc-22']));
    expect(after).not.toContain('gc-21');
    expect(await rows()).toEqual(expect.arrayContaining([5000, 5020, 5022]));
    expect(await rows()).not.toContain(5021);
  });

  it("a check of a write's answer that fails refuses its job, even when nothing after it waits", async () => {
    const results = await Promise.allSettled(
      [30, 31].map((n) =>
        writeTx(db, async (tx, w) => {
          await w.ahead(event(tx, n), () => {
            if (n === 31) throw new Error('bad answer');
          });
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe('bad answer');
    const after = await events();
    expect(after).toContain('gc-30');
    expect(after).not.toContain('gc-31');
  });
});

// PostgreSQL starts the next job before the answers of the one before are checked (db/tx.ts GroupTx); when the
// one before turns out to have failed, the next one must be undone with it and run again on the state
// without it. Jobs here read the counter and write it back plus one: a job that ran on a state that was then
// undone would leave a wrong count.
describe('a job that fails after the next one has started (PostgreSQL overlaps them)', () => {
  const counter = async () => Number((await sql<{ v: number }>`select v from gc_counter where id = 1`.execute(db)).rows[0]!.v);
  const bump = (w: WriteScope, fail?: 'statement' | 'check') =>
    (async () => {
      const tx = w.tx;
      const v = Number((await sql<{ v: number }>`select v from gc_counter where id = 1`.execute(tx)).rows[0]!.v);
      const write = sql`update gc_counter set v = ${v + 1} where id = 1`;
      await w.ahead({ compile: () => write.compile(tx) });
      // A failure that shows only in an answer nobody waited for: a statement error (the transaction is
      // aborted, so the job behind fails too) or a check of a good answer (it is not: the job behind succeeds).
      if (fail === 'statement') {
        const bad = sql`insert into gc_rows (n) values (${9000}), (${9000})`;
        await w.ahead({ compile: () => bad.compile(tx) });
      }
      if (fail === 'check') {
        const ok = sql`select 1`;
        await w.ahead({ compile: () => ok.compile(tx) }, () => {
          throw new Error('check refused');
        });
      }
      return v + 1;
    })();

  it.each(['statement', 'check'] as const)('%s failure: the failed job leaves nothing, every other job counts once, in order', async (fail) => {
    const start = await counter();
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => writeTx(db, (_tx, w) => bump(w, i % 4 === 1 ? fail : undefined))));
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    expect(ok).toHaveLength(9);
    // Each successful job saw exactly the successful ones before it.
    expect(ok).toEqual(Array.from({ length: 9 }, (_, i) => start + i + 1));
    expect(await counter()).toBe(start + 9);
    expect(await rows()).not.toContain(9000);
  });
});

it("an effect record whose job runs again forgets what its first run recorded (the idempotency key's claim)", async () => {
  await db.insertInto('idempotency_keys').values({ user_id: 0, key: 'gc-taken', endpoint: '/gc', request_hash: 'h', state: 'done', response: 'null', created_at: 0 }).execute();
  const record = (key: string) => {
    const r = {
      recorded: false,
      begins: 0,
      begin: async () => {
        r.begins++;
        if (r.recorded) throw new Error('a second effect transaction');
      },
      end: async (w: WriteScope) => {
        const tx = w.tx;
        const claim = tx
          .insertInto('idempotency_keys')
          .values({ user_id: 0, key, endpoint: '/gc', request_hash: 'h', state: 'done', response: 'null', created_at: 0 })
          .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing());
        await w.ahead(claim, (res) => {
          if (Number(res.numAffectedRows ?? 0) === 0) throw new Error('key taken');
          r.recorded = true;
        });
      },
      undo: () => {
        r.recorded = false;
      },
    };
    return r;
  };
  const taken = record('gc-taken');
  const fresh = record('gc-fresh');
  const [a, b] = await Promise.allSettled([writeTx(db, async () => 'a', taken), writeTx(db, async () => 'b', fresh)]);
  expect(a.status).toBe('rejected');
  expect(b).toEqual({ status: 'fulfilled', value: 'b' });
  expect(fresh.recorded).toBe(true);
  // PostgreSQL ran it again after the job before it failed (SQLite runs them one after the other: once).
  expect(fresh.begins).toBe(dialectOf(db) === 'postgres' ? 2 : 1);
  expect(await db.selectFrom('idempotency_keys').select('key').where('key', '=', 'gc-fresh').execute()).toHaveLength(1);
});

it("a job refused by a check of an answer after its key's claim went through: its record forgets the claim", async () => {
  // On PostgreSQL the claim is sent ahead behind the failing write, and its answer (a row inserted, then
  // rolled back with the job) can come after the failure is seen: the record must not keep it.
  const record = {
    recorded: false,
    begin: async () => undefined,
    end: async (w: WriteScope) => {
      const tx = w.tx;
      const claim = tx
        .insertInto('idempotency_keys')
        .values({ user_id: 0, key: 'gc-refused', endpoint: '/gc', request_hash: 'h', state: 'done', response: 'null', created_at: 0 })
        .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing());
      await w.ahead(claim, (res) => {
        if (Number(res.numAffectedRows ?? 0) === 0) throw new Error('key taken');
        record.recorded = true;
      });
    },
    undo: () => {
      record.recorded = false;
    },
  };
  const answer = await writeTx(
    db,
    async (tx, w) => {
      const ok = sql`select 1`;
      await w.ahead({ compile: () => ok.compile(tx) }, () => {
        throw new Error('check refused');
      });
      return 'x';
    },
    record,
  ).catch((err: Error) => err.message);
  expect(answer).toBe('check refused');
  expect(await db.selectFrom('idempotency_keys').select('key').where('key', '=', 'gc-refused').execute()).toHaveLength(0);
  expect(record.recorded).toBe(false);
});

describe('PostgreSQL: the connection of a group dropped while its job works', () => {
  it('answers every caller, commits nothing of the dropped group, and does not take the process down', async () => {
    if (dialectOf(db) !== 'postgres') return;
    const admin = openDatabase(await databaseTarget(dir)).db;
    // pg emits 'error' on a client whose server connection ends while it is checked out of the pool; with
    // no listener that is an uncaught exception, which ends the server process (main.ts has no handler).
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let pid = 0;
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          writeTx(db, async (tx, w) => {
            if (i === 0) pid = Number((await sql<{ p: number }>`select pg_backend_pid() as p`.execute(tx)).rows[0]!.p);
            const insert = sql`insert into gc_rows (n) values (${7000 + i})`;
            await w.ahead({ compile: () => insert.compile(tx) });
            if (i === 3) {
              // The job awaits something else (no statement on the wire) when its connection is ended.
              await sql`select pg_terminate_backend(${pid})`.execute(admin);
              await new Promise((resolve) => setTimeout(resolve, 200));
            }
            return i;
          }),
        ),
      );
      // Every caller is answered; what is answered ok is written, nothing refused is.
      const kept = results.flatMap((r, i) => (r.status === 'fulfilled' ? [7000 + i] : []));
      expect(results[3]!.status).toBe('rejected');
      expect((await rows()).filter((n) => n >= 7000 && n < 8000)).toEqual(kept);
      expect(uncaught).toEqual([]);
      // And the next write works, on a fresh connection.
      expect(await writeTx(db, async (tx) => (await sql`insert into gc_rows (n) values (7999)`.execute(tx), 'ok'))).toBe('ok');
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.destroy();
      await sql`delete from gc_rows`.execute(db);
    }
  });
});

describe('PostgreSQL: the connection of a group dropped by a write a job sent ahead', () => {
  it('answers each caller exactly once, whichever job drops it and however', async () => {
    if (dialectOf(db) !== 'postgres') return;
    // Every answer passes through the observer once (resolve or reject): a job answered twice counts twice.
    const answered: boolean[] = [];
    observeWriteTx(db, { tx: (_s, ok) => void answered.push(ok), group: () => undefined });
    try {
      for (const k of [0, 1, 2, 5]) {
        for (const how of ['ahead', 'awaited', 'after a failed check'] as const) {
          answered.length = 0;
          const results = await Promise.allSettled(
            Array.from({ length: 6 }, (_, i) =>
              writeTx(db, async (tx, w) => {
                const insert = sql`insert into gc_rows (n) values (${7100 + i})`;
                await w.ahead({ compile: () => insert.compile(tx) });
                if (i === k) {
                  // The job's own connection ends: its group's rollback to the savepoint fails too.
                  const kill = sql`select pg_terminate_backend(pg_backend_pid())`;
                  if (how === 'awaited') await kill.execute(tx);
                  else {
                    if (how === 'after a failed check') {
                      const one = sql`select 1`;
                      await w.ahead({ compile: () => one.compile(tx) }, () => {
                        throw new Error('check refused');
                      });
                    }
                    await w.ahead({ compile: () => kill.compile(tx) });
                  }
                }
                return i;
              }),
            ),
          );
          const kept = results.flatMap((r, i) => (r.status === 'fulfilled' ? [7100 + i] : []));
          expect(results[k]!.status).toBe('rejected');
          expect((await rows()).filter((n) => n >= 7100 && n < 7200)).toEqual(kept);
          expect(answered).toHaveLength(6);
          await sql`delete from gc_rows`.execute(db);
        }
      }
    } finally {
      observeWriteTx(db, { tx: () => undefined, group: () => undefined });
      await sql`delete from gc_rows`.execute(db);
    }
  });
});

it('PostgreSQL: a job that swallows a statement error cannot make the group report a commit that rolled back', async () => {
  const results = await Promise.allSettled([
    writeTx(db, async (tx) => void (await sql`insert into gc_rows (n) values (${8100})`.execute(tx))),
    writeTx(db, async (tx) => {
      await sql`select 1 / 0`.execute(tx).catch(() => undefined); // aborts the transaction on PostgreSQL
      return 'swallowed';
    }),
  ]);
  const written = (await rows()).includes(8100);
  // Whatever each caller was told must be true: a job answered ok is written.
  if (results[0]!.status === 'fulfilled') expect(written).toBe(true);
  if (results[0]!.status === 'rejected') expect(written).toBe(false);
  // On PostgreSQL the swallowing job is refused, and so is the first when it shares its group (it may have
  // committed in the group before, when that one reached its time limit on a loaded machine).
  if (dialectOf(db) === 'postgres') expect(results[1]!.status).toBe('rejected');
  else expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
});
