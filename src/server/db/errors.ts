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
