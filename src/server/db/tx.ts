import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import type { DB } from './connection';
import type { Database } from './schema';

export type Tx = Kysely<Database>;

/** Work to run inside every write transaction of the current async context, just before its commit
 *  (the idempotency record of a request commits together with the request's effect). */
const beforeCommit = new AsyncLocalStorage<(tx: Tx) => Promise<void>>();

export function withBeforeCommit<T>(hook: (tx: Tx) => Promise<void>, fn: () => Promise<T>): Promise<T> {
  return beforeCommit.run(hook, fn);
}

/** Runs `fn` in one write transaction taken with BEGIN IMMEDIATE, so two processes (server and operator
 *  CLI) never interleave a read-then-write on the same rows. Everything inside commits or nothing does. */
export async function writeTx<T>(db: DB, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await beforeCommit.getStore()?.(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}
