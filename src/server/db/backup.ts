import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf, type DB } from './connection';
import { HEAD_MIGRATION, MIGRATION_NAMES } from './migrate';

// Back-up and restore of the embedded (SQLite) database, for `ops db:backup` and `ops db:restore`
// (docs/operations.md). PostgreSQL has its own tools (pg_dump / pg_restore); these refuse there and say so.

export class BackupError extends Error {}

export interface BackupInfo {
  file: string;
  bytes: number;
  /** The newest migration the copy has: a restore of an older copy is migrated forward on the next start. */
  migration: string;
}

/** A consistent copy of the live database, taken while the server runs (VACUUM INTO: one read transaction,
 *  the copy compacted), then checked as a restore would check it. */
export async function backupSqlite(db: DB, file: string): Promise<BackupInfo> {
  if (dialectOf(db) !== 'sqlite') throw new BackupError('db:backup is for the embedded SQLite database; on PostgreSQL use pg_dump --format=custom (docs/operations.md)');
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists already: choose a new file name (a backup never overwrites one)`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await sql`vacuum into ${target}`.execute(db);
  return inspectBackup(target);
}

/** Opens a copy read-only and checks that it is a whole Canopy database this version can run. */
export function inspectBackup(file: string): BackupInfo {
  const target = path.resolve(file);
  if (!fs.existsSync(target)) throw new BackupError(`${target} does not exist`);
  let copy: SQLite.Database;
  try {
    copy = new SQLite(target, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${target} cannot be opened as a database: ${(err as Error).message}`);
  }
  try {
    let check: string;
    try {
      check = String(copy.pragma('integrity_check', { simple: true }));
    } catch (err) {
      throw new BackupError(`${target} is not a SQLite database: ${(err as Error).message}`);
    }
    if (check !== 'ok') throw new BackupError(`${target} failed the integrity check: ${check}`);
    const hasLog = copy.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
    if (!hasLog) throw new BackupError(`${target} is not a Canopy database (no migration log)`);
    const names = (copy.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    const unknown = names.filter((n) => !MIGRATION_NAMES.includes(n));
    if (unknown.length) throw new BackupError(`${target} comes from a newer Canopy (migrations ${unknown.join(', ')} unknown to this version, whose newest is ${HEAD_MIGRATION}): restore it with that version`);
    if (!names.length) throw new BackupError(`${target} is not a Canopy database (no migration applied)`);
    return { file: target, bytes: fs.statSync(target).size, migration: names.at(-1)! };
  } finally {
    copy.close();
  }
}

/**
 * Puts a checked copy in place of the database file through SQLite's online backup (page by page under
 * SQLite's own locks, so a reader never sees half a file; the WAL is reset with it). Run it with the server
 * stopped: a running server would go on from its own caches. The copy itself is left untouched.
 */
export async function restoreSqlite(file: string, dbFile: string): Promise<BackupInfo> {
  const info = inspectBackup(file);
  if (path.resolve(dbFile) === info.file) throw new BackupError('the backup and the database are the same file');
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const source = new SQLite(info.file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path.resolve(dbFile));
  } finally {
    source.close();
  }
  return info;
}
