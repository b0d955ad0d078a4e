// Constraint errors of both databases, by constraint name (or, for SQLite's unnamed checks and unique
// indexes, what SQLite names instead), so modules map them to catalogue refusals without reading
// driver-specific messages.

export interface Violation {
  type: 'check' | 'unique' | 'foreign_key';
  /** PostgreSQL: the constraint or index name. SQLite: the check's name (or its expression when it has
   *  none), or "table.col, table.col" for a unique index. */
  name: string;
}

export function violationOf(err: unknown): Violation | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  // PostgreSQL (pg): SQLSTATE class 23.
  if (e.code === '23514') return { type: 'check', name: String(e.constraint ?? '') };
  if (e.code === '23505') return { type: 'unique', name: String(e.constraint ?? '') };
  if (e.code === '23503') return { type: 'foreign_key', name: String(e.constraint ?? '') };
  // SQLite (better-sqlite3).
  if (e.code === 'SQLITE_CONSTRAINT_CHECK') return { type: 'check', name: message.replace(/^CHECK constraint failed: /, '') };
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return { type: 'unique', name: message.replace(/^UNIQUE constraint failed: /, '') };
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return { type: 'foreign_key', name: '' };
  // A trigger's RAISE(ABORT, name) that stands for a check across rows or columns (projects_held).
  if (e.code === 'SQLITE_CONSTRAINT_TRIGGER') return { type: 'check', name: message };
  return null;
}

/** A CHECK constraint by name; `sqliteExpression` is what SQLite reports for an unnamed column check. */
export function isCheck(err: unknown, name: string, sqliteExpression?: string): boolean {
  const v = violationOf(err);
  return v?.type === 'check' && (v.name === name || (sqliteExpression !== undefined && v.name === sqliteExpression));
}

/** A unique index by name (PostgreSQL) or by its table's columns as SQLite reports them. */
export function isUnique(err: unknown, name: string, sqliteColumns: string): boolean {
  const v = violationOf(err);
  return v?.type === 'unique' && (v.name === name || v.name === sqliteColumns);
}

// Errors that say the database cannot be reached (or will not take work now), not that a request or the
// code is wrong: answered 503 service_unavailable with Retry-After, and /readyz reports the database.
const NODE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE 57P01-57P03: the server is shutting down, was shut down, or cannot connect now (starting up).
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
// SQLSTATE 55000 is a broad "not in the required state"; only its refusal of a connection (a database under
// ALTER DATABASE ... ALLOW_CONNECTIONS false, as an operator sets during maintenance) says the database is away.
const PG_NOT_ACCEPTING = /is not currently accepting connections/;
const PG_CLIENT_GONE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended unexpectedly|Client was closed and is not queryable)/;

export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (NODE_NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
      if (code === '55000' && typeof message === 'string' && PG_NOT_ACCEPTING.test(message)) return true;
      // SQLite: the file cannot be opened or read, or another writer held it past busy_timeout.
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_IOERR')) return true;
    }
    if (typeof message === 'string' && PG_CLIENT_GONE.test(message)) return true;
    // An AggregateError (a connection tried on several addresses) or an error wrapping the driver's.
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((x) => isConnectionError(x))) return true;
    e = cause;
  }
  return false;
}
