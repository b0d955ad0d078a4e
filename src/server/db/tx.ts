import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
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

/** Key of the PostgreSQL advisory lock every write transaction takes (see writeTx). */
const WRITE_LOCK = 0x63616e6f; // "cano"

/** Runs `fn` in one write transaction in which nobody else writes: SQLite's BEGIN IMMEDIATE (one writer
 *  per database file), and on PostgreSQL the same guarantee across every connection and instance through a
 *  transaction-scoped advisory lock. So two processes (servers, operator CLI) never interleave a
 *  read-then-write on the same rows, and checks read inside hold until the commit. Everything inside
 *  commits or nothing does. Inside an idempotent request, this is the request's effect: its result is the
 *  answer stored with the key in the same transaction. */
export async function writeTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const record = effectRecord.getStore();
  const postgres = dialectOf(db) === 'postgres';
  return db.connection().execute(async (conn) => {
    if (postgres) {
      await sql`begin`.execute(conn);
    } else {
      await sql`begin immediate`.execute(conn);
    }
    try {
      if (postgres) await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(conn);
      await record?.begin(conn);
      const result = await fn(conn);
      await record?.end(conn, result);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}

/** A write transaction that is not the request's effect (a counted wrong password, a lock, a session
 *  ending): it commits on its own even when the request is refused. */
export function untrackedWriteTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return effectRecord.exit(() => writeTx(db, fn));
}
