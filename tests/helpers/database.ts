// Which database the server tests run on. Without TEST_DATABASE_URL: SQLite files under each test's
// DATA_DIR (the embedded default). With TEST_DATABASE_URL=postgres://...: every test server gets its own
// PostgreSQL schema (created here, dropped when the test closes it), so the whole suite runs on
// PostgreSQL too (`npm run test:pg`). A data directory keeps its schema across a restart in one test.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? '';
export const onPostgres = TEST_DATABASE_URL !== '';

const schemas = new Map<string, string>(); // DATA_DIR -> schema
let admin: pg.Pool | null = null;

function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  return admin;
}

export function urlWithSchema(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** The env a server (in-process or child) on `dataDir` needs: DATABASE_URL on PostgreSQL, nothing on SQLite. */
export async function databaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (!onPostgres) return {};
  const key = path.resolve(dataDir);
  let schema = schemas.get(key);
  if (!schema) {
    schema = `t_${process.pid}_${randomBytes(5).toString('hex')}`;
    await adminPool().query(`create schema ${schema}`);
    schemas.set(key, schema);
  }
  return { DATABASE_URL: urlWithSchema(TEST_DATABASE_URL, schema) };
}

/** Known already (for synchronous callers such as runCli): the env of a data directory set up before. */
export function knownDatabaseEnv(dataDir: string | undefined): Record<string, string> {
  if (!onPostgres || !dataDir) return {};
  const schema = schemas.get(path.resolve(dataDir));
  return schema ? { DATABASE_URL: urlWithSchema(TEST_DATABASE_URL, schema) } : {};
}

/** What openDatabase should open for `dataDir` (the SQLite file, or the test's schema). */
export async function databaseTarget(dataDir: string): Promise<string> {
  return (await databaseEnv(dataDir)).DATABASE_URL ?? path.join(dataDir, 'canopy.db');
}

export async function dropDatabase(dataDir: string): Promise<void> {
  const key = path.resolve(dataDir);
  const schema = schemas.get(key);
  if (!schema) return;
  schemas.delete(key);
  await adminPool().query(`drop schema if exists ${schema} cascade`);
}
