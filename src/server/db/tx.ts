import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, sql, type Compilable, type DatabaseConnection, type Kysely, type QueryResult } from 'kysely';
import { dialectOf, type DB } from './connection';
import type { Database } from './schema';

export type Tx = Kysely<Database>;

/** What the effect transaction of an idempotent request does besides its own work: claim the key when it
 *  begins, store the answer just before it commits. Effect, key and answer commit together or not at all. */
export interface EffectRecord {
  begin(tx: Tx): Promise<void>;
  end(tx: Tx, result: unknown): Promise<void>;
  /** What end() recorded was rolled back with the job, which runs again (PostgreSQL's group, see
   *  groupTxPostgres): forget it. */
  undo(): void;
  /** end() of several records of its kind at once (a batch, see Batcher): the same function on every record
   *  of the kind, given each record of the batch with its result. It throws when any of them cannot be
   *  recorded (a key taken meanwhile): the batch is undone, and each of its jobs runs alone. A record without
   *  it keeps its job out of batches. */
  readonly endMany?: (tx: Tx, ends: readonly { record: EffectRecord; result: unknown }[]) => Promise<void>;
}

/** Write transactions of one kind that a group commit can run together (order placement): several of them
 *  waiting in a row are run by ONE call of `many`, which reads what all of them need in one round trip and
 *  writes what they do with a statement per table for all of them instead of a statement per job and table.
 *  On PostgreSQL a statement's fixed cost (planning, executor start, a round trip) is most of what a one-row
 *  write costs. `many` runs them as if one after the other (each sees what the ones before it did, so
 *  refusals and limits are exactly those of running them in turn): per input, its result, or the refusal
 *  it got without writing anything. When `many` throws, or a write it sent fails, the whole batch is rolled
 *  back and each job runs alone as its `fn` (writeTxBatched), which then gives each failure its own error. */
export interface Batcher<I, R> {
  many(tx: Tx, inputs: readonly I[]): Promise<BatchOutcome<R>[]>;
}
export type BatchOutcome<R> = { ok: true; result: R } | { ok: false; err: unknown };

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
  /** One batch (Batcher) run: how many jobs it carried, and whether it held (false: each of them ran alone). */
  batch?(jobs: number, held: boolean): void;
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
  /** Set when the job can run in a batch with others of its batcher (writeTxBatched). */
  batch?: { batcher: Batcher<unknown, unknown>; input: unknown };
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** PostgreSQL, the running job of a group: its raw connection, and what was sent on it without waiting for
 *  the answer (the job's savepoint, writeAhead's writes), each settled in the order sent. */
interface Ahead {
  raw: DatabaseConnection;
  sent: Promise<Settled>[];
  /** The job's savepoint went ahead too: its failure fails the whole group (see groupTxPostgres). */
  savepoint: Promise<Settled> | undefined;
}
type Settled = { ok: true } | { ok: false; err: unknown };

const aheadOf = new WeakMap<object, Ahead>();

function settle(p: Promise<unknown>): Promise<Settled> {
  return p.then(
    () => ({ ok: true }) as const,
    (err: unknown) => ({ ok: false, err }) as const,
  );
}

/** A write whose answer the job does not wait for (a socket message's row, the supply a purchase takes, an
 *  order whose row the job already knows, a ledger entry, the idempotency key's claim): inside a PostgreSQL write transaction it is sent at
 *  once on the job's connection, and the job goes on without waiting for its round trip: the pg client's
 *  pipeline mode (openDatabase) puts it on the wire behind the statements before it and in front of the next,
 *  and PostgreSQL runs them in that order, so everything after it sees it. `check` looks at its answer when it
 *  comes. A failure of the write or of `check` fails the job (rolled back to its savepoint), exactly as if it
 *  had been awaited: the group waits for every answer before it counts the job done. Elsewhere (SQLite, whose
 *  statements cost no round trip; outside a write transaction) it runs and is checked at once. */
export async function writeAhead<R>(tx: Tx, query: Compilable<R>, check?: (result: QueryResult<R>) => void): Promise<void> {
  const ahead = aheadOf.get(tx);
  if (!ahead) {
    const result = await tx.executeQuery(query.compile());
    check?.(result);
    return;
  }
  ahead.sent.push(
    settle(
      ahead.raw.executeQuery<R>(query.compile()).then((result) => {
        check?.(result);
      }),
    ),
  );
}

/** A read sent together with others (a batch's reads, awaited together by the caller): inside a PostgreSQL
 *  write transaction it goes out at once on the job's connection, so several leave in one write and their
 *  answers come back in one round trip (pipeline mode, see writeAhead); its failure is the job's. Elsewhere it
 *  runs as any query does (SQLite: one after the other). */
export function readAhead<R>(tx: Tx, query: Compilable<R>): Promise<QueryResult<R>> {
  const ahead = aheadOf.get(tx);
  if (!ahead) return tx.executeQuery(query.compile());
  const answer = ahead.raw.executeQuery<R>(query.compile());
  ahead.sent.push(settle(answer));
  return answer;
}

/** Once every answer a job is owed is in (and each check of one has run, so none can still change what the
 *  job's record holds), the first failure among them in the order sent; undefined when none failed. */
async function firstFailure(ahead: Ahead): Promise<Settled | undefined> {
  return (await Promise.all(ahead.sent)).find((s) => !s.ok);
}

/** PostgreSQL's "current transaction is aborted": a statement before this one failed. */
const IN_FAILED_TRANSACTION = '25P02';

/** Group commit: the write transactions that are waiting when one commit starts share it. Each runs in
 *  its own SAVEPOINT, one after the other, inside one database transaction; one that fails is rolled back
 *  to its savepoint (nothing of it remains) and refused at once; the others are answered only after the
 *  shared COMMIT has returned, so an answer never precedes its durable write. A failed COMMIT fails every
 *  job of the group, none of which then exists. Serial as before: each job sees the ones before it (on
 *  PostgreSQL a job starts before the answers of the one before it are checked, and runs again when that one
 *  failed: groupTxPostgres). */
class GroupCommit {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: DB) {}

  run<T>(fn: (tx: Tx) => Promise<T>, record: EffectRecord | undefined, batch?: Job['batch']): Promise<T> {
    const observer = observers.get(this.db);
    return new Promise<T>((resolve, reject) => {
      if (observer) {
        const t0 = performance.now();
        this.queue.push({
          fn,
          record,
          batch,
          resolve: (v) => {
            observer.tx((performance.now() - t0) / 1000, true);
            resolve(v as T);
          },
          reject: (err) => {
            observer.tx((performance.now() - t0) / 1000, false);
            reject(err);
          },
        });
      } else this.queue.push({ fn, record, batch, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  /** The jobs at the head of the queue that can run as one batch (the same batcher, records that can end
   *  together), at most `room` of them, taken off the queue; undefined when fewer than two are there. */
  private takeBatch(room: number): Job[] | undefined {
    const batcher = this.queue[0]?.batch?.batcher;
    if (!batcher) return undefined;
    let n = 0;
    while (n < this.queue.length && n < room) {
      const job = this.queue[n]!;
      if (job.batch?.batcher !== batcher || (job.record && !job.record.endMany)) break;
      n++;
    }
    return n >= 2 ? this.queue.splice(0, n) : undefined;
  }

  /** A batch that failed as a whole (rolled back already): each of its jobs runs alone, first in line. */
  private alone(batch: Job[]): void {
    for (const job of batch) job.record?.undo();
    this.queue.unshift(...batch.map((job) => ({ ...job, batch: undefined })));
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
    if (postgres) return this.groupTxPostgres(conn);
    const done: { job: Job; result: unknown }[] = [];
    let begun = false;
    try {
      await sql.raw('begin immediate').execute(conn);
      begun = true;
      const started = performance.now();
      while (this.queue.length > 0 && done.length < GROUP_MAX_JOBS && performance.now() - started < GROUP_MAX_MS) {
        const batch = this.takeBatch(GROUP_MAX_JOBS - done.length);
        if (batch) {
          await sql`savepoint job`.execute(conn).catch((err: unknown) => {
            for (const job of batch) job.reject(err); // answered: the group's catch below answers the others
            throw err;
          });
          let outcomes: BatchOutcome<unknown>[];
          try {
            outcomes = await runBatch(conn, batch);
            await sql`release savepoint job`.execute(conn);
          } catch {
            observers.get(this.db)?.batch?.(batch.length, false);
            // Back in line first: should the rollback fail, the group fails, and they run in the next one.
            this.alone(batch);
            await sql`rollback to savepoint job`.execute(conn);
            await sql`release savepoint job`.execute(conn);
            continue;
          }
          observers.get(this.db)?.batch?.(batch.length, true);
          outcomes.forEach((o, i) => (o.ok ? done.push({ job: batch[i]!, result: o.result }) : batch[i]!.reject(o.err)));
          continue;
        }
        const job = this.queue.shift()!;
        await sql`savepoint job`.execute(conn).catch((err: unknown) => {
          job.reject(err); // answered: the group's catch below answers the others
          throw err;
        });
        try {
          const result = await runJob(conn, job);
          await sql`release savepoint job`.execute(conn);
          done.push({ job, result });
        } catch (err) {
          // Refused first: should the rollback itself fail, the group's catch below answers the others.
          job.reject(err);
          await sql`rollback to savepoint job`.execute(conn);
          await sql`release savepoint job`.execute(conn);
        }
      }
      await sql`commit`.execute(conn);
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      // Could not begin: drain() refuses every waiting job instead of trying again at once.
      if (!begun) throw err;
      for (const { job } of done) job.reject(err);
      return;
    }
    for (const { job, result } of done) job.resolve(result);
  }

  /** PostgreSQL: the same group, with the round trips overlapped. BEGIN, the lock and the first job's
   *  savepoint are one simple query. A job's savepoint goes ahead of its first statement, and a job whose
   *  code has run to its end (every statement sent, the answers of those it sent ahead still coming: the
   *  key's claim is one of them) is checked only once the next job has been started: the next job's
   *  savepoint and first read go out right behind it, and its answers come back in the same round trip as
   *  that read. When the checked job turns out to have failed, the transaction rolls back to its savepoint
   *  (named per job: j0, j1, ...), which undoes the next job too; that job's outcome is thrown away, whatever
   *  it was (its statements failed in the aborted transaction, or saw writes that are now undone), and it runs
   *  again, first in line, once the rollback is done. */
  private async groupTxPostgres(conn: Tx): Promise<void> {
    const raw = await conn.getExecutor().provideConnection(async (c) => c);
    const done: { job: Job; result: unknown }[] = [];
    /** The job whose code has run to its end, its answers not all checked yet. */
    let checking: { job: Job; result: unknown; ahead: Ahead; savepoint: string } | undefined;
    let n = 0;
    let begun = false;
    try {
      await sql.raw(`begin; select pg_advisory_xact_lock(${WRITE_LOCK}); savepoint j0`).execute(conn);
      begun = true;
      const started = performance.now();
      for (;;) {
        const more = this.queue.length > 0 && done.length + (checking ? 1 : 0) < GROUP_MAX_JOBS && performance.now() - started < GROUP_MAX_MS;
        const batch = more ? this.takeBatch(GROUP_MAX_JOBS - done.length - (checking ? 1 : 0)) : undefined;
        if (batch) {
          // A batch does not overlap the job before it: that one is checked first.
          if (checking) {
            const last = checking;
            checking = undefined;
            const failed = await firstFailure(last.ahead);
            if (failed) {
              last.job.record?.undo();
              last.job.reject(failed.ok ? undefined : failed.err);
              // The batch is off the queue and nobody has answered it yet: should this rollback fail (the
              // connection is gone), the group fails without it, so it goes back in line for the next one.
              await sql
                .raw(`rollback to savepoint ${last.savepoint}; release savepoint ${last.savepoint}`)
                .execute(conn)
                .catch((err: unknown) => {
                  this.queue.unshift(...batch);
                  throw err;
                });
            } else done.push({ job: last.job, result: last.result });
          }
          const savepoint = `j${n}`;
          const sent = n === 0 ? undefined : settle(raw.executeQuery(CompiledQuery.raw(`savepoint ${savepoint}`)));
          n++;
          const ahead: Ahead = { raw, sent: sent ? [sent] : [], savepoint: sent };
          aheadOf.set(conn, ahead);
          const outcome = await runBatch(conn, batch).then(
            (outcomes) => ({ ok: true as const, outcomes }),
            (err: unknown) => ({ ok: false as const, err }),
          );
          aheadOf.delete(conn);
          const failed = await firstFailure(ahead);
          if (ahead.savepoint && !(await ahead.savepoint).ok) {
            // Without the batch's savepoint nothing tells its writes from the jobs' before it: the group fails.
            const err = outcome.ok ? (failed && !failed.ok ? failed.err : undefined) : outcome.err;
            for (const job of batch) job.reject(err);
            throw err;
          }
          observers.get(this.db)?.batch?.(batch.length, outcome.ok && !failed);
          if (!outcome.ok || failed) {
            // Back in line first: should the rollback fail, the group fails, and they run in the next one.
            this.alone(batch);
            await sql.raw(`rollback to savepoint ${savepoint}; release savepoint ${savepoint}`).execute(conn);
            continue;
          }
          outcome.outcomes.forEach((o, i) => (o.ok ? done.push({ job: batch[i]!, result: o.result }) : batch[i]!.reject(o.err)));
          continue;
        }
        const job = more ? this.queue.shift() : undefined;
        let ahead: Ahead | undefined;
        let running: Promise<{ ok: true; result: unknown } | { ok: false; err: unknown }> | undefined;
        const savepoint = `j${n}`;
        if (job) {
          const sent = n === 0 ? undefined : settle(raw.executeQuery(CompiledQuery.raw(`savepoint ${savepoint}`)));
          n++;
          ahead = { raw, sent: sent ? [sent] : [], savepoint: sent };
          aheadOf.set(conn, ahead);
          running = runJob(conn, job).then(
            (result) => ({ ok: true as const, result }),
            (err: unknown) => ({ ok: false as const, err }),
          );
        }
        if (checking) {
          const failed = await firstFailure(checking.ahead);
          if (failed && !failed.ok) {
            // Answered here, once: should the rollback below fail, the group's catch must not answer it again.
            const refused = checking;
            checking = undefined;
            // Its answers after the failed one (the key's claim) may have set its record: forget that too.
            refused.job.record?.undo();
            refused.job.reject(failed.err);
            if (job) {
              // The job started behind it: let it end (its statements fail in the aborted transaction, or it
              // saw what is now undone), wait for every answer it is owed, and run it again after the rollback.
              await running;
              aheadOf.delete(conn);
              await firstFailure(ahead!);
              job.record?.undo();
              this.queue.unshift(job);
            }
            // Back to the failed job's savepoint: it and everything after it (the job behind it) are undone.
            await sql.raw(`rollback to savepoint ${refused.savepoint}; release savepoint ${refused.savepoint}`).execute(conn);
            continue;
          }
          done.push({ job: checking.job, result: checking.result });
          checking = undefined;
        }
        if (!job) break;
        const outcome = await running!;
        aheadOf.delete(conn);
        if (outcome.ok) {
          checking = { job, result: outcome.result, ahead: ahead!, savepoint };
          continue;
        }
        // The job failed in its own code or in a statement it waited for. A statement that found the
        // transaction aborted says only that one before it failed: the job is refused with that first failure
        // (a CHECK of a write sent ahead, say), which callers map.
        const failed = await firstFailure(ahead!);
        job.record?.undo();
        if (ahead!.savepoint && !(await ahead!.savepoint).ok) {
          // Without this job's savepoint, nothing tells its writes from the jobs' before it: the group fails.
          job.reject(outcome.err);
          throw outcome.err;
        }
        job.reject(failed && !failed.ok && (outcome.err as { code?: string }).code === IN_FAILED_TRANSACTION ? failed.err : outcome.err);
        await sql.raw(`rollback to savepoint ${savepoint}; release savepoint ${savepoint}`).execute(conn);
      }
      // COMMIT of a transaction a failed statement has aborted answers ROLLBACK without an error: every job
      // would be told "done" with nothing written. A job that swallowed a statement's error could leave it
      // so; the select in front fails first then (25P02), and the group fails as a whole instead.
      await sql.raw('select 1; commit').execute(conn);
    } catch (err) {
      aheadOf.delete(conn);
      await sql`rollback`.execute(conn).catch(() => undefined);
      // Could not begin (or take the lock): drain() refuses every waiting job instead of trying again at once.
      if (!begun) throw err;
      checking?.job.reject(err);
      for (const { job } of done) job.reject(err);
      return;
    }
    for (const { job, result } of done) job.resolve(result);
  }
}

/** A job's own work: its code, then its effect record's end (the idempotency key's claim and answer). */
async function runJob(conn: Tx, job: Job): Promise<unknown> {
  await job.record?.begin(conn);
  const result = await job.fn(conn);
  await job.record?.end(conn, result);
  return result;
}

/** A batch's work: its batcher's `many`, then its records' end, all of a kind in one call. */
async function runBatch(conn: Tx, batch: Job[]): Promise<BatchOutcome<unknown>[]> {
  for (const job of batch) await job.record?.begin(conn);
  const outcomes = await batch[0]!.batch!.batcher.many(
    conn,
    batch.map((job) => job.batch!.input),
  );
  if (outcomes.length !== batch.length) throw new Error(`a batch of ${batch.length} jobs got ${outcomes.length} outcomes`);
  const ends = new Map<NonNullable<EffectRecord['endMany']>, { record: EffectRecord; result: unknown }[]>();
  outcomes.forEach((o, i) => {
    const record = batch[i]!.record;
    if (!o.ok || !record?.endMany) return;
    const list = ends.get(record.endMany) ?? [];
    list.push({ record, result: o.result });
    ends.set(record.endMany, list);
  });
  for (const [endMany, list] of ends) await endMany(conn, list);
  return outcomes;
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
  return groupOf(db).run(fn, effectRecord.getStore());
}

/** The database's group commit, made at its first write. */
function groupOf(db: DB): GroupCommit {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group;
}

/** writeTx for a job that can also run in a batch with others of `batcher` (see Batcher): `input` is its
 *  part of a batch, `fn` what it does alone (when no other is waiting, or when its batch failed). Both must
 *  do the same. */
export function writeTxBatched<I, T>(db: DB, batcher: Batcher<I, T>, input: I, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return groupOf(db).run(fn, effectRecord.getStore(), { batcher: batcher as Batcher<unknown, unknown>, input });
}

/** A write transaction that is not the request's effect (a counted wrong password, a lock, a session
 *  ending): it commits on its own even when the request is refused. */
export function untrackedWriteTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return effectRecord.exit(() => writeTx(db, fn));
}
