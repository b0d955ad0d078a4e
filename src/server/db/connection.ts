import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type DatabaseIntrospector } from 'kysely';
import { DEFAULT_DB_CONNECT_TIMEOUT_MS } from '../config';
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

/** PostgreSQL plans an unnamed statement anew on every execution (the purchase checks, one query with four
 *  subqueries, cost ~1-2 ms to plan against ~0.5 ms to run). Statements with parameters are therefore sent
 *  as named prepared statements, named by their text, so each connection parses and plans one once. Off
 *  until the migrations are done (enablePreparedStatements, server.ts): a `select *` prepared before a
 *  migration alters its table could no longer describe it. At most PREPARED_MAX texts get a name (Kysely
 *  writes `in ($1, $2, ...)` lists of any length, and every connection keeps what it prepared); the rest run
 *  unnamed. Texts without parameters (DDL, several statements at once) always run unnamed. */
const PREPARED_MAX = 300;

interface PreparedState {
  on: boolean;
  names: Map<string, string>;
}
const prepared = new WeakMap<DB, PreparedState>();

function preparingClient(state: PreparedState): typeof pg.Client {
  return class PreparingClient extends pg.Client {
    private corked = false;

    // pg's query() has many overloads; Kysely calls query(text, values) and, for cursors, query(submittable).
    override query(...args: unknown[]): never {
      this.corkUntilTicked();
      const [text, values] = args;
      if (state.on && args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0) {
        let name = state.names.get(text);
        if (name === undefined && state.names.size < PREPARED_MAX) state.names.set(text, (name = `canopy_${state.names.size}`));
        if (name !== undefined) return (super.query as unknown as (config: pg.QueryConfig) => never)({ name, text, values });
      }
      return (super.query as unknown as (...a: unknown[]) => never)(...args);
    }

    /** pg writes each statement with a syscall of its own (it corks and uncorks the socket around one
     *  statement's messages): in the order bench's CPU profile on PostgreSQL (bench/orders.ts) that writev is
     *  a large share of the server's time. Statements sent in one go (a write job's savepoint and first read;
     *  the writes it sends ahead and the claim of its key; see db/tx.ts WriteScope) leave in one write
     *  instead: the socket stays corked until the code that is running now and the promise reactions it
     *  started have run. A statement sent alone leaves uncorked, only after the current callback ends, before
     *  any I/O. */
    private corkUntilTicked(): void {
      if (this.corked) return;
      const stream = (this as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
      if (!stream?.cork || !stream.uncork) return;
      stream.cork();
      this.corked = true;
      process.nextTick(() => {
        this.corked = false;
        stream.uncork!();
      });
    }
  } as unknown as typeof pg.Client;
}

/** From now on, PostgreSQL statements with parameters run as named prepared statements (see above). */
export function enablePreparedStatements(db: DB): void {
  const state = prepared.get(db);
  if (state) state.on = true;
}

/** PostgreSQL's introspection (Kysely's migrator asks it whether its own tables exist) reads the tables of
 *  every schema in the database. A schema another session drops meanwhile makes that read fail (`schema
 *  "..." does not exist`, 3F000; a dropped table, 42P01): several Canopy databases on one server, or the
 *  test suite's parallel files, each on a schema of its own that it drops when done (a server's start failed
 *  so under `npm run test:pg` at load). Read again, the catalogue no longer lists what was dropped. */
const DROPPED_MEANWHILE = new Set(['3F000', '42P01']);
const INTROSPECTION_TRIES = 10;

async function againIfDroppedMeanwhile<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= INTROSPECTION_TRIES || !DROPPED_MEANWHILE.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}

class PostgresDialectDropSafe extends PostgresDialect {
  override createIntrospector(db: Parameters<PostgresDialect['createIntrospector']>[0]): DatabaseIntrospector {
    const inner = super.createIntrospector(db);
    return {
      getSchemas: () => inner.getSchemas(),
      getTables: (options) => againIfDroppedMeanwhile(() => inner.getTables(options)),
    };
  }
}

/** Opens the database: a `postgres://` URL through a pg pool, otherwise a SQLite file (created if
 *  needed) with WAL, foreign keys on and durable writes for money. */
export function openDatabase(target: string, opts: { poolSize?: number; connectTimeoutMs?: number } = {}): { db: DB; sqlite?: SQLite.Database; dialect: DialectName } {
  if (isPostgresUrl(target)) {
    const state: PreparedState = { on: false, names: new Map() };
    // Pipeline mode: a statement is sent without waiting for the answer of the one before on the same
    // connection (they are still run, and answered, in order). Only a group commit's job sends ahead
    // (db/tx.ts WriteScope); every other caller waits for each answer, as without it.
    const pool = new pg.Pool({
      connectionString: target,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_DB_CONNECT_TIMEOUT_MS,
      Client: preparingClient(state),
      pipeline: true,
    });
    // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    // Nor a checked-out one's: the pool listens only while a client is idle, and pg emits 'error' when the
    // server ends a connection in use (a restart, pg_terminate_backend) even if no statement was waiting,
    // say while a group commit's job computes. Its statements fail on their own; released, the pool drops
    // it (not queryable). Without a listener the process ended with an uncaught exception.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialectDropSafe({ pool }) });
    dialects.set(db, 'postgres');
    prepared.set(db, state);
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
