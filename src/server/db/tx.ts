import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { dialectOf, type DB } from './connection';
import type { Database } from './schema';

export type Tx = Kysely<Database>;

/** What the effect transaction of an idempotent request does besides its own work: claim the key when it
 *  begins, store the answer just before it commits. Effect, key and answer commit together or not at all. */
export interface EffectRecord {
  begin(tx: Tx): Promise<void>;
  end(tx: Tx, result: unknown): Promise<void>;
}

const effectRecord = new AsyncLocalStorage<EffectRecord>();

/** Runs `fn` with `record` attached to the write transactions it opens (see writeTx). */
export function withEffectRecord<T>(record: EffectRecord, fn: () => Promise<T>): Promise<T> {
  return effectRecord.run(record, fn);
}

/** Timings of one database's write transactions (startServer hands them to its metrics; lib/metrics.ts). */
export interface WriteTxObserver {
  /** One writeTx call, from the call to its answer: the wait for the shared commit included. */
  tx(seconds: number, committed: boolean): void;
  /** One shared database transaction of the group commit: BEGIN (PostgreSQL: and its advisory lock) to COMMIT or ROLLBACK. */
  group(seconds: number): void;
}

const observers = new WeakMap<DB, WriteTxObserver>();

/** Reports the timings of `db`'s write transactions to `observer` from now on (both dialects). */
export function observeWriteTx(db: DB, observer: WriteTxObserver): void {
  observers.set(db, observer);
}

/** Key of the PostgreSQL advisory lock every write transaction takes (see writeTx). */
const WRITE_LOCK = 0x63616e6f; // "cano"

/** Most write transactions one shared commit carries, and the longest it keeps taking new ones. */
const GROUP_MAX_JOBS = 64;
const GROUP_MAX_MS = 20;

interface Job {
  fn: (tx: Tx) => Promise<unknown>;
  record: EffectRecord | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** PostgreSQL: the running job's write that waits to go with its next statement (see writeWithNext). */
const waiting = new WeakMap<object, CompiledQuery[]>();

/** A write whose answer nobody reads (a socket message's row; a supply taken that a CHECK guards): inside a
 *  PostgreSQL write transaction it waits (one at a time) and goes out with the job's next statement sent through withWaiting() (an order's row, the idempotency
 *  key's insert), as a data-modifying CTE of that one statement, or at the job's end:
 *  one round trip less in the serial section. It commits or rolls back with the job exactly as before. Sent
 *  at once elsewhere (SQLite, whose statements cost no round trip, and outside a write transaction). */
export async function writeWithNext(tx: Tx, query: Compilable): Promise<void> {
  const list = waiting.get(tx);
  if (!list) {
    await tx.executeQuery(query.compile());
    return;
  }
  // One waits at a time: PostgreSQL runs a statement's CTEs in no set order, and writes must keep the order
  // they were queued in (the ids of socket messages: the hubs deliver by id). A second sends the first now.
  const before = list.splice(0);
  for (const q of before) await tx.executeQuery(q);
  list.push(query.compile());
}

/** Runs `query` with the job's waiting inserts in front of it, all in one statement (PostgreSQL's WITH);
 *  its result is `query`'s alone (a CTE's rows do not count in the command's row count). */
export async function withWaiting<R>(tx: Tx, query: Compilable<R>): Promise<QueryResult<R>> {
  const list = waiting.get(tx);
  const compiled = query.compile();
  if (!list || list.length === 0) return tx.executeQuery(compiled);
  const queued = list.splice(0);
  return tx.executeQuery(combine(queued, compiled) as CompiledQuery<R>);
}

/** `with w0 as (<insert>), w1 as (...) <last>`, each statement's $n shifted past the parameters before it. */
function combine(first: CompiledQuery[], last: CompiledQuery): CompiledQuery {
  const parameters: unknown[] = [];
  const shifted = (q: CompiledQuery) => {
    const offset = parameters.length;
    parameters.push(...q.parameters);
    // Kysely writes every value as $n; a quote would mean a literal in the text, where $n is not a placeholder.
    if (q.sql.includes("'")) throw new Error('withWaiting: a statement with a literal cannot be combined');
    return q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  };
  const ctes = first.map((q, i) => `w${i} as (${shifted(q)})`).join(', ');
  return { ...last, sql: `with ${ctes} ${shifted(last)}`, parameters };
}

/** Sends what still waits at the end of a job (no statement carried it). */
async function flushWaiting(tx: Tx): Promise<void> {
  const list = waiting.get(tx);
  if (!list || list.length === 0) return;
  for (const q of list.splice(0)) await tx.executeQuery(q);
}

/** Group commit: the write transactions that are waiting when one commit starts share it. Each runs in
 *  its own SAVEPOINT, one after the other, inside one database transaction; one that fails is rolled back
 *  to its savepoint (nothing of it remains) and refused at once; the others are answered only after the
 *  shared COMMIT has returned, so an answer never precedes its durable write. A failed COMMIT fails every
 *  job of the group, none of which then exists. Serial as before: each job sees the ones before it. */
class GroupCommit {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: DB) {}

  run<T>(fn: (tx: Tx) => Promise<T>, record: EffectRecord | undefined): Promise<T> {
    const observer = observers.get(this.db);
    return new Promise<T>((resolve, reject) => {
      if (observer) {
        const t0 = performance.now();
        this.queue.push({
          fn,
          record,
          resolve: (v) => {
            observer.tx((performance.now() - t0) / 1000, true);
            resolve(v as T);
          },
          reject: (err) => {
            observer.tx((performance.now() - t0) / 1000, false);
            reject(err);
          },
        });
      } else this.queue.push({ fn, record, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        // Let the requests that have already arrived (pending I/O callbacks) reach their writes first:
        // they join this commit instead of each paying for its own.
        await new Promise((resolve) => setImmediate(resolve));
        await this.db
          .connection()
          .execute((conn) => this.group(conn))
          .catch((err: unknown) => {
            // Could not even begin (e.g. the database is gone): refuse what waits, so nobody hangs.
            for (const job of this.queue.splice(0)) job.reject(err);
          });
      }
    } finally {
      this.running = false;
    }
  }

  private async group(conn: Tx): Promise<void> {
    const postgres = dialectOf(this.db) === 'postgres';
    const observer = observers.get(this.db);
    const t0 = performance.now();
    try {
      await this.groupTx(conn, postgres);
    } finally {
      observer?.group((performance.now() - t0) / 1000);
    }
  }

  private async groupTx(conn: Tx, postgres: boolean): Promise<void> {
    // PostgreSQL: BEGIN, the lock and the first job's savepoint in one round trip (a simple query of
    // constant text may hold several statements; the group waits for each round trip).
    const done: { job: Job; result: unknown }[] = [];
    let begun = false;
    try {
      if (postgres) await sql.raw(`begin; select pg_advisory_xact_lock(${WRITE_LOCK}); savepoint job`).execute(conn);
      else await sql.raw('begin immediate').execute(conn);
      begun = true;
      const started = performance.now();
      let first = true;
      while (this.queue.length > 0 && done.length < GROUP_MAX_JOBS && performance.now() - started < GROUP_MAX_MS) {
        const job = this.queue.shift()!;
        if (!(first && postgres)) await sql`savepoint job`.execute(conn);
        first = false;
        if (postgres) waiting.set(conn, []);
        try {
          await job.record?.begin(conn);
          const result = await job.fn(conn);
          await job.record?.end(conn, result);
          if (postgres) {
            await flushWaiting(conn);
            waiting.delete(conn);
          }
          // PostgreSQL: a round trip saved per job (each is time the whole group waits). The savepoints of
          // the jobs before stay open, nested and harmless: ROLLBACK TO rolls back to the latest of the
          // name (this job's), and COMMIT ends them all. SQLite's are in-process: released as they end.
          if (!postgres) await sql`release savepoint job`.execute(conn);
          done.push({ job, result });
        } catch (err) {
          // Refused first: should the rollback itself fail, the group's catch below answers the others.
          job.reject(err);
          if (postgres) {
            waiting.delete(conn); // what waited is dropped: the job is rolled back
            await sql.raw('rollback to savepoint job; release savepoint job').execute(conn);
          }
          else {
            await sql`rollback to savepoint job`.execute(conn);
            await sql`release savepoint job`.execute(conn);
          }
        }
      }
      await sql`commit`.execute(conn);
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      // Could not begin (or take the lock): drain() refuses every waiting job instead of trying again at once.
      if (!begun) throw err;
      for (const { job } of done) job.reject(err);
      return;
    }
    for (const { job, result } of done) job.resolve(result);
  }
}

const groups = new WeakMap<DB, GroupCommit>();

/** Runs `fn` in one write transaction in which nobody else writes: SQLite's BEGIN IMMEDIATE (one writer
 *  per database file), and on PostgreSQL the same guarantee across every connection and instance through a
 *  transaction-scoped advisory lock. So two processes (servers, operator CLI) never interleave a
 *  read-then-write on the same rows, and checks read inside hold until the commit. Everything inside
 *  commits or nothing does; concurrent calls share one durable commit (GroupCommit). Inside an idempotent
 *  request, this is the request's effect: its result is the answer stored with the key in the same
 *  transaction. `fn` must use only `tx` (on SQLite the one connection is held by the group). */
export function writeTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.run(fn, effectRecord.getStore());
}

/** A write transaction that is not the request's effect (a counted wrong password, a lock, a session
 *  ending): it commits on its own even when the request is refused. */
export function untrackedWriteTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return effectRecord.exit(() => writeTx(db, fn));
}
