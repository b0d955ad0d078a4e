import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import type { DB } from './connection';
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

/** Runs `fn` in one write transaction taken with BEGIN IMMEDIATE, so two processes (server and operator
 *  CLI) never interleave a read-then-write on the same rows. Everything inside commits or nothing does.
 *  Inside an idempotent request, this is the request's effect: its result is the answer stored with the
 *  key in the same transaction. */
export async function writeTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const record = effectRecord.getStore();
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
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
