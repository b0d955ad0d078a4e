import { CompiledQuery, sql, type Compilable, type DatabaseConnection, type Kysely, type QueryResult } from 'kysely';
import { dialectOf, type DB } from './connection';
import type { Database } from './schema';

export type Tx = Kysely<Database>;

/** What a write transaction's code is handed besides the transaction: the way to send a statement without
 *  waiting for its answer (`ahead`) and to send reads together (`read`). The group commit makes one per job
 *  (GroupTx), for the job's own savepoint; outside a group (`atOnce`) both run the statement at once. */
export interface WriteScope {
  readonly tx: Tx;
  /** A write whose answer the job does not wait for (a socket message's row, the supply a purchase takes, an
   *  order whose row the job already knows, a ledger entry, the idempotency key's claim): inside a PostgreSQL
   *  write transaction it is sent at once on the job's connection, and the job goes on without waiting for its
   *  round trip: the pg client's pipeline mode (openDatabase) puts it on the wire behind the statements before
   *  it and in front of the next, and PostgreSQL runs them in that order, so everything after it sees it.
   *  `check` looks at its answer when it comes. A failure of the write or of `check` fails the job (rolled back
   *  to its savepoint), exactly as if it had been awaited: the group waits for every answer before it counts
   *  the job done. Elsewhere (SQLite, whose statements cost no round trip; outside a write transaction) it runs
   *  and is checked at once. */
  ahead<R>(query: Compilable<R>, check?: (result: QueryResult<R>) => void): Promise<void>;
  /** A read sent together with others (a batch's reads, awaited together by the caller): inside a PostgreSQL
   *  write transaction it goes out at once on the job's connection, so several leave in one write and their
   *  answers come back in one round trip (pipeline mode, see `ahead`); its failure is the job's. Elsewhere it
   *  runs as any query does (SQLite: one after the other). */
  read<R>(query: Compilable<R>): Promise<QueryResult<R>>;
}

/** A scope whose statements run at once on `tx` (SQLite's jobs, and a transaction outside the group commit). */
export function atOnce(tx: Tx): WriteScope {
  return {
    tx,
    ahead: async (query, check) => {
      const result = await tx.executeQuery(query.compile());
      check?.(result);
    },
    read: (query) => tx.executeQuery(query.compile()),
  };
}

/** What the effect transaction of an idempotent request does besides its own work: claim the key when it
 *  begins, store the answer just before it commits. Effect, key and answer commit together or not at all. */
export interface EffectRecord {
  begin(w: WriteScope): Promise<void>;
  end(w: WriteScope, result: unknown): Promise<void>;
  /** What end() recorded was rolled back with the job, which runs again (PostgreSQL's group, see
   *  GroupTx): forget it. */
  undo(): void;
  /** end() of several records of its kind at once (a batch, see Batcher): the same function on every record
   *  of the kind, given each record of the batch with its result. It throws when any of them cannot be
   *  recorded (a key taken meanwhile): the batch is undone, and each of its jobs runs alone. A record without
   *  it keeps its job out of batches. */
  readonly endMany?: (w: WriteScope, ends: readonly { record: EffectRecord; result: unknown }[]) => Promise<void>;
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
  many(w: WriteScope, inputs: readonly I[]): Promise<BatchOutcome<R>[]>;
}
export type BatchOutcome<R> = { ok: true; result: R } | { ok: false; err: unknown };

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
  fn: (tx: Tx, w: WriteScope) => Promise<unknown>;
  record: EffectRecord | undefined;
  /** Set when the job can run in a batch with others of its batcher (writeTxBatched). */
  batch?: { batcher: Batcher<unknown, unknown>; input: unknown };
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The running job of a group: on PostgreSQL its raw connection, and what was sent on it without waiting
 *  for the answer (the job's savepoint, what its WriteScope sent), each settled in the order sent; on SQLite
 *  its savepoint, already taken. */
interface Ahead {
  /** PostgreSQL's connection, to send on without waiting; absent on SQLite, where everything runs at once. */
  raw?: DatabaseConnection;
  sent: Promise<Settled>[];
  /** The job's savepoint (undefined for j0, taken with BEGIN): its failure fails the whole group (see GroupTx). */
  savepoint: Promise<Settled> | undefined;
}
type Settled = { ok: true } | { ok: false; err: unknown };

function settle(p: Promise<unknown>): Promise<Settled> {
  return p.then(
    () => ({ ok: true }) as const,
    (err: unknown) => ({ ok: false, err }) as const,
  );
}

/** The scope of a job whose statements go out as `ahead` says: on PostgreSQL's pipelined connection
 *  without waiting, each answer kept for the check of the job (firstFailure); on SQLite at once. */
function scopeOf(conn: Tx, ahead: Ahead): WriteScope {
  const raw = ahead.raw;
  if (!raw) return atOnce(conn);
  return {
    tx: conn,
    ahead: <R>(query: Compilable<R>, check?: (result: QueryResult<R>) => void) => {
      ahead.sent.push(
        settle(
          raw.executeQuery<R>(query.compile()).then((result) => {
            check?.(result);
          }),
        ),
      );
      return Promise.resolve();
    },
    read: <R>(query: Compilable<R>) => {
      const answer = raw.executeQuery<R>(query.compile());
      ahead.sent.push(settle(answer));
      return answer;
    },
  };
}

/** Once every answer a job is owed is in (and each check of one has run, so none can still change what the
 *  job's record holds), the first failure among them in the order sent; undefined when none failed. */
async function firstFailure(ahead: Ahead): Promise<Settled | undefined> {
  return (await Promise.all(ahead.sent)).find((s) => !s.ok);
}

/** PostgreSQL's "current transaction is aborted": a statement before this one failed. */
const IN_FAILED_TRANSACTION = '25P02';

/** What the two databases do differently in a group's transaction; the loop (GroupCommit) is shared. */
interface GroupDriver {
  /** BEGIN (PostgreSQL: and the write lock) with the first job's savepoint, j0. */
  begin(conn: Tx): Promise<void>;
  /** What a job about to run sends ahead, its savepoint (undefined: j0, taken with BEGIN) first. */
  open(conn: Tx, savepoint: string | undefined): Promise<Ahead>;
  /** A job's (or batch's) code ended without error, before its answers are checked. */
  ran(conn: Tx, savepoint: string): Promise<void>;
  /** Back to a job's savepoint, released: the job and everything after it are undone. */
  rollbackTo(conn: Tx, savepoint: string): Promise<void>;
  commit(conn: Tx): Promise<void>;
}

/** SQLite: statements run at once (no round trip to save), so nothing goes ahead; one writer per file. */
const sqliteDriver = (): GroupDriver => ({
  begin: async (conn) => {
    await sql.raw('begin immediate').execute(conn);
    await sql.raw('savepoint j0').execute(conn);
  },
  open: async (conn, savepoint) => {
    const taken = savepoint ? Promise.resolve(await settle(sql.raw(`savepoint ${savepoint}`).execute(conn))) : undefined;
    return { sent: taken ? [taken] : [], savepoint: taken };
  },
  // Every answer is in once the code ends: the job is done, and its savepoint released. Savepoints do not
  // nest then, and SQLite empties its savepoint journal whenever none is open (nested, it would hold a copy
  // of every page each job touched until the COMMIT, and spill to a file).
  ran: async (conn, savepoint) => void (await sql.raw(`release savepoint ${savepoint}`).execute(conn)),
  rollbackTo: async (conn, savepoint) => {
    await sql.raw(`rollback to savepoint ${savepoint}`).execute(conn);
    await sql.raw(`release savepoint ${savepoint}`).execute(conn);
  },
  commit: async (conn) => void (await sql.raw('commit').execute(conn)),
});

/** PostgreSQL: the round trips overlap. BEGIN, the advisory lock (one writer across connections and
 *  instances) and j0 are one simple query; a job's savepoint and what its WriteScope sends go out
 *  on the raw connection without waiting (the pg client's pipeline mode, openDatabase). */
function postgresDriver(): GroupDriver {
  let raw: DatabaseConnection;
  return {
    begin: async (conn) => {
      raw = await conn.getExecutor().provideConnection((c) => Promise.resolve(c));
      await sql.raw(`begin; select pg_advisory_xact_lock(${WRITE_LOCK}); savepoint j0`).execute(conn);
    },
    open: (_conn, savepoint) => {
      const sent = savepoint ? settle(raw.executeQuery(CompiledQuery.raw(`savepoint ${savepoint}`))) : undefined;
      return Promise.resolve({ raw, sent: sent ? [sent] : [], savepoint: sent });
    },
    // Its answers are still coming: the savepoint stays until the COMMIT, for the check to roll back to.
    ran: () => Promise.resolve(),
    rollbackTo: async (conn, savepoint) => void (await sql.raw(`rollback to savepoint ${savepoint}; release savepoint ${savepoint}`).execute(conn)),
    // COMMIT of a transaction a failed statement has aborted answers ROLLBACK without an error: every job
    // would be told "done" with nothing written. A job that swallowed a statement's error could leave it
    // so; the select in front fails first then (25P02), and the group fails as a whole instead.
    commit: async (conn) => void (await sql.raw('select 1; commit').execute(conn)),
  };
}

type Outcome<T> = { ok: true; value: T } | { ok: false; err: unknown };
const outcomeOf = <T>(p: Promise<T>): Promise<Outcome<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );

/** The job whose code has run to its end, its answers not all checked yet (see GroupTx). */
interface Checking {
  job: Job;
  result: unknown;
  ahead: Ahead;
  savepoint: string;
}

/** Group commit: the write transactions that are waiting when one commit starts share it. Each runs in
 *  its own SAVEPOINT (j0, j1, ...), one after the other, inside one database transaction; one that fails
 *  is rolled back to its savepoint (nothing of it remains) and refused at once; the others are answered
 *  only after the shared COMMIT has returned, so an answer never precedes its durable write. A failed
 *  COMMIT fails every job of the group, none of which then exists. Serial: each job sees the ones before
 *  it. A job whose code has run to its end (every statement sent, the answers of those it sent ahead still
 *  coming: the key's claim is one of them) is checked only once the next job has been started, so on
 *  PostgreSQL the next job's savepoint and first read go out right behind it; when the checked job turns out
 *  to have failed, the rollback to its savepoint undoes the next job too, which runs again, first in line.
 *  On SQLite nothing is sent ahead and the check finds every answer in. */
class GroupCommit {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: DB) {}

  run<T>(fn: (tx: Tx, w: WriteScope) => Promise<T>, record: EffectRecord | undefined, batch?: Job['batch']): Promise<T> {
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
  takeBatch(room: number): Job[] | undefined {
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

  /** The next job waiting, taken off the queue. */
  take(): Job | undefined {
    return this.queue.shift();
  }

  /** Jobs that go back to the head of the queue (to run again in this group or the next). */
  putBack(jobs: Job[]): void {
    this.queue.unshift(...jobs);
  }

  /** A batch that failed as a whole (rolled back already): each of its jobs runs alone, first in line. */
  alone(batch: Job[]): void {
    for (const job of batch) job.record?.undo();
    this.queue.unshift(...batch.map((job) => ({ ...job, batch: undefined })));
  }

  get waiting(): number {
    return this.queue.length;
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
    const observer = observers.get(this.db);
    const t0 = performance.now();
    try {
      const driver = dialectOf(this.db) === 'postgres' ? postgresDriver() : sqliteDriver();
      await new GroupTx(this, conn, driver, observer).run();
    } finally {
      observer?.group((performance.now() - t0) / 1000);
    }
  }
}

/** One shared transaction of a group commit: its jobs in order, the ones done waiting for the COMMIT. */
class GroupTx {
  private readonly done: { job: Job; result: unknown }[] = [];
  private checking: Checking | undefined;
  private n = 0;

  constructor(
    private readonly group: GroupCommit,
    private readonly conn: Tx,
    private readonly driver: GroupDriver,
    private readonly observer: WriteTxObserver | undefined,
  ) {}

  async run(): Promise<void> {
    let begun = false;
    try {
      await this.driver.begin(this.conn);
      begun = true;
      const started = performance.now();
      for (;;) {
        const room = GROUP_MAX_JOBS - this.done.length - (this.checking ? 1 : 0);
        const more = this.group.waiting > 0 && room > 0 && performance.now() - started < GROUP_MAX_MS;
        const batch = more ? this.group.takeBatch(room) : undefined;
        if (batch) {
          await this.runBatchOf(batch);
          continue;
        }
        const job = more ? this.group.take() : undefined;
        if (!(await this.runJobOf(job))) break;
      }
      await this.driver.commit(this.conn);
    } catch (err) {
      await sql`rollback`.execute(this.conn).catch(() => undefined);
      // Could not begin: drain() refuses every waiting job instead of trying again at once.
      if (!begun) throw err;
      this.checking?.job.reject(err);
      for (const { job } of this.done) job.reject(err);
      return;
    }
    for (const { job, result } of this.done) job.resolve(result);
  }

  /** The next job's savepoint, and what it sends ahead: kept here, and sent through the scope it is handed. */
  private async open(): Promise<{ savepoint: string; ahead: Ahead; scope: WriteScope }> {
    const savepoint = `j${this.n}`;
    const ahead = await this.driver.open(this.conn, this.n === 0 ? undefined : savepoint);
    this.n++;
    return { savepoint, ahead, scope: scopeOf(this.conn, ahead) };
  }

  /** A job refused: its record forgotten (what it recorded is undone), its caller answered. */
  private refuse(job: Job, err: unknown): void {
    job.record?.undo();
    job.reject(err);
  }

  /** Runs `job` (undefined: none left for this group) while the one before it is checked. False once
   *  nothing is left to run or check. */
  private async runJobOf(job: Job | undefined): Promise<boolean> {
    let opened: { savepoint: string; ahead: Ahead; scope: WriteScope } | undefined;
    let running: Promise<Outcome<unknown>> | undefined;
    if (job) {
      opened = await this.open();
      running = outcomeOf(runJob(this.conn, opened.scope, job));
    }
    if (this.checking && !(await this.checkLast(job && { job, running: running!, ahead: opened!.ahead }))) return true;
    if (!job) return false;
    const { savepoint, ahead } = opened!;
    const outcome = await running!;
    if (outcome.ok) {
      this.checking = { job, result: outcome.value, ahead, savepoint };
      await this.driver.ran(this.conn, savepoint);
      return true;
    }
    // The job failed in its own code or in a statement it waited for. A statement that found the
    // transaction aborted says only that one before it failed: the job is refused with that first failure
    // (a CHECK of a write sent ahead, say), which callers map.
    const failed = await firstFailure(ahead);
    if (ahead.savepoint && !(await ahead.savepoint).ok) {
      // Without this job's savepoint, nothing tells its writes from the jobs' before it: the group fails.
      this.refuse(job, outcome.err);
      throw outcome.err;
    }
    this.refuse(job, failed && !failed.ok && (outcome.err as { code?: string }).code === IN_FAILED_TRANSACTION ? failed.err : outcome.err);
    await this.driver.rollbackTo(this.conn, savepoint);
    return true;
  }

  /** Checks the job whose code ended before `next` started: done, or (an answer it was owed failed)
   *  refused and rolled back together with `next`, which goes back in line. False when it was refused. */
  private async checkLast(next: { job: Job; running: Promise<Outcome<unknown>>; ahead: Ahead } | undefined): Promise<boolean> {
    const last = this.checking!;
    // Answered here, once: should the rollback below fail, the group's catch must not answer it again.
    this.checking = undefined;
    const failed = await firstFailure(last.ahead);
    if (!failed || failed.ok) {
      this.done.push({ job: last.job, result: last.result });
      return true;
    }
    // Its answers after the failed one (the key's claim) may have set its record: forget that too.
    this.refuse(last.job, failed.err);
    if (next) {
      // The job started behind it: let it end (its statements fail in the aborted transaction, or it saw
      // what is now undone), wait for every answer it is owed, and run it again after the rollback.
      await next.running;
      await firstFailure(next.ahead);
      next.job.record?.undo();
      this.group.putBack([next.job]);
    }
    await this.driver.rollbackTo(this.conn, last.savepoint);
    return false;
  }

  /** Runs a batch (Batcher) in its own savepoint; the job before it is checked first (a batch does not
   *  overlap it). A batch that fails as a whole is rolled back and its jobs run alone. */
  private async runBatchOf(batch: Job[]): Promise<void> {
    if (this.checking) {
      // The batch is off the queue and nobody has answered it yet: should the check's rollback fail (the
      // connection is gone), the group fails without it, so it goes back in line for the next one.
      await this.checkLast(undefined).catch((err: unknown) => {
        this.group.putBack(batch);
        throw err;
      });
    }
    const { savepoint, ahead, scope } = await this.open();
    const outcome = await outcomeOf(runBatch(scope, batch));
    const failed = await firstFailure(ahead);
    if (ahead.savepoint && !(await ahead.savepoint).ok) {
      // Without the batch's savepoint nothing tells its writes from the jobs' before it: the group fails.
      const err = outcome.ok ? (failed && !failed.ok ? failed.err : undefined) : outcome.err;
      for (const job of batch) job.reject(err);
      throw err;
    }
    this.observer?.batch?.(batch.length, outcome.ok && !failed);
    if (!outcome.ok || failed) {
      // Back in line first: should the rollback fail, the group fails, and they run in the next one.
      this.group.alone(batch);
      await this.driver.rollbackTo(this.conn, savepoint);
      return;
    }
    await this.driver.ran(this.conn, savepoint).catch((err: unknown) => {
      for (const job of batch) job.reject(err); // answered: the group's catch answers the others
      throw err;
    });
    outcome.value.forEach((o, i) => (o.ok ? this.done.push({ job: batch[i]!, result: o.result }) : batch[i]!.reject(o.err)));
  }
}

/** A job's own work: its code, then its effect record's end (the idempotency key's claim and answer). */
async function runJob(conn: Tx, w: WriteScope, job: Job): Promise<unknown> {
  await job.record?.begin(w);
  const result = await job.fn(conn, w);
  await job.record?.end(w, result);
  return result;
}

/** A batch's work: its batcher's `many`, then its records' end, all of a kind in one call. */
async function runBatch(w: WriteScope, batch: Job[]): Promise<BatchOutcome<unknown>[]> {
  for (const job of batch) await job.record?.begin(w);
  const outcomes = await batch[0]!.batch!.batcher.many(
    w,
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
  for (const [endMany, list] of ends) await endMany(w, list);
  return outcomes;
}

const groups = new WeakMap<DB, GroupCommit>();

/** Runs `fn` in one write transaction in which nobody else writes: SQLite's BEGIN IMMEDIATE (one writer
 *  per database file), and on PostgreSQL the same guarantee across every connection and instance through a
 *  transaction-scoped advisory lock. So two processes (servers, operator CLI) never interleave a
 *  read-then-write on the same rows, and checks read inside hold until the commit. Everything inside
 *  commits or nothing does; concurrent calls share one durable commit (GroupCommit). Given the `record` of
 *  an idempotent request (lib/idempotency.ts), this is the request's effect: its result is the answer
 *  stored with the key in the same transaction. Without one it commits on its own, whatever becomes of the
 *  request (a counted wrong password, a lock, a session ending). `fn` must use only `tx` and `w`, the job's
 *  scope (on SQLite the one connection is held by the group). */
export function writeTx<T>(db: DB, fn: (tx: Tx, w: WriteScope) => Promise<T>, record?: EffectRecord): Promise<T> {
  return groupOf(db).run(fn, record);
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
export function writeTxBatched<I, T>(db: DB, batcher: Batcher<I, T>, input: I, fn: (tx: Tx, w: WriteScope) => Promise<T>, record?: EffectRecord): Promise<T> {
  return groupOf(db).run(fn, record, { batcher: batcher as Batcher<unknown, unknown>, input });
}
