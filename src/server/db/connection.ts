import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema';

export type DB = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

// One set of repositories for both databases: SQLite (embedded default, a file) and PostgreSQL (when
// DATABASE_URL is set). What differs between them lives in db/: here, in tx.ts (how a write transaction
// is taken), dialect.ts (schema details of migrations) and errors.ts (constraint errors).

// PostgreSQL answers bigint (int8) and numeric (sums of bigints) as strings; every number we keep is an
// integer within 2^53 (cents, tons, milliseconds), so both become JS numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const dialects = new WeakMap<object, DialectName>();

export function dialectOf(db: Kysely<unknown> | DB): DialectName {
  return dialects.get(db) ?? (db.getExecutor().adapter.constructor.name.startsWith('Postgres') ? 'postgres' : 'sqlite');
}

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/** Kysely's SQLite driver prepares every statement anew (a compile per query, about 40% of an order's
 *  database time): keep the last STATEMENT_CACHE prepared statements by their SQL text and reuse them.
 *  The driver runs each statement to completion (all/run) before the next, so one statement is never used
 *  twice at once; a busy one (an open iterator) is not reused. */
const STATEMENT_CACHE = 500;

function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      const hit = cache.get(text);
      if (hit && !hit.busy) {
        // Map order is insertion order: re-insert to keep the most recently used last.
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const stmt = sqlite.prepare(text);
      if (!hit) {
        cache.set(text, stmt);
        if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      }
      return stmt;
    },
  };
}

/** Opens the database: a `postgres://` URL through a pg pool, otherwise a SQLite file (created if
 *  needed) with WAL, foreign keys on and durable writes for money. */
export function openDatabase(target: string, opts: { poolSize?: number } = {}): { db: DB; sqlite?: SQLite.Database; dialect: DialectName } {
  if (isPostgresUrl(target)) {
    const pool = new pg.Pool({ connectionString: target, max: opts.poolSize ?? 10 });
    // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialects.set(db, 'postgres');
    return { db, dialect: 'postgres' };
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const sqlite = new SQLite(target);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  dialects.set(db, 'sqlite');
  return { db, sqlite, dialect: 'sqlite' };
}
