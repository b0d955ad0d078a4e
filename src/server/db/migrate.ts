import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { dialectOf, type DB } from './connection';
import * as m001 from './migrations/001-foundation';
import * as m002 from './migrations/002-idempotency';
import * as m003 from './migrations/003-wallet';
import * as m004 from './migrations/004-orders';
import * as m005 from './migrations/005-retention';
import * as m006 from './migrations/006-list-path';
import * as m007 from './migrations/007-footprint';
import * as m008 from './migrations/008-scheduler-index';
import * as m011 from './migrations/011-operator-audit';
import * as m012 from './migrations/012-retirement';
import * as m013 from './migrations/013-topup-reconcile';
import * as m014 from './migrations/014-footprint-banner';
import * as m015 from './migrations/015-retirement-append-only';
import * as m016 from './migrations/016-live-notify';
import * as m017 from './migrations/017-order-indexes';
import * as m018 from './migrations/018-order-usage';
import * as m019 from './migrations/019-server-secret';
import * as m020 from './migrations/020-project-places-cn';
import * as m021 from './migrations/021-retirement-privacy';
import * as m022 from './migrations/022-project-icc';
import * as m023 from './migrations/023-push';
import * as m024 from './migrations/024-passkeys';
import * as m025 from './migrations/025-offset-plans';
import * as m026 from './migrations/026-receipts';
import * as m027 from './migrations/027-organisations';
import * as m028 from './migrations/028-approvals';
import * as m029 from './migrations/029-icc-cap';
import * as m030 from './migrations/030-push-person';
import * as m031 from './migrations/031-org-fixes';
import * as m032 from './migrations/032-icc-surrender';
import * as m033 from './migrations/033-page-company';
import * as m036 from './migrations/036-idempotency-scope';
import * as m040 from './migrations/040-registry-blocks';
import * as m041 from './migrations/041-project-held-tons';
import * as m042 from './migrations/042-registry-cancellation';
import * as m043 from './migrations/043-registry-pause';
import * as m044 from './migrations/044-api-keys';
import * as m045 from './migrations/045-sandbox';
import * as m046 from './migrations/046-webhooks';

// Migrations are listed here in order (no directory scanning, so the bundle and tsx agree).
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-idempotency': m002,
  '003-wallet': m003,
  '004-orders': m004,
  '005-retention': m005,
  '006-list-path': m006,
  '007-footprint': m007,
  '008-scheduler-index': m008,
  '011-operator-audit': m011,
  '012-retirement': m012,
  '013-topup-reconcile': m013,
  '014-footprint-banner': m014,
  '015-retirement-append-only': m015,
  '016-live-notify': m016,
  '017-order-indexes': m017,
  '018-order-usage': m018,
  '019-server-secret': m019,
  '020-project-places-cn': m020,
  '021-retirement-privacy': m021,
  '022-project-icc': m022,
  '023-push': m023,
  '024-passkeys': m024,
  '025-offset-plans': m025,
  '026-receipts': m026,
  '027-organisations': m027,
  '028-approvals': m028,
  '029-icc-cap': m029,
  '030-push-person': m030,
  '031-org-fixes': m031,
  '032-icc-surrender': m032,
  '033-page-company': m033,
  '036-idempotency-scope': m036,
  '040-registry-blocks': m040,
  '041-project-held-tons': m041,
  '042-registry-cancellation': m042,
  '043-registry-pause': m043,
  '044-api-keys': m044,
  '045-sandbox': m045,
  '046-webhooks': m046,
};

/** Every migration this version knows, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations).sort();

/** The newest migration's name: a database whose last applied migration is this one is at head. */
export const HEAD_MIGRATION = Object.keys(migrations).sort().at(-1)!;

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function migrateToLatest(db: DB): Promise<string[]> {
  // PostgreSQL: Kysely looks for its bookkeeping tables in every schema unless told which one, so name
  // the schema the connection works in (search_path): several Canopy databases can share one server.
  let migrationTableSchema: string | undefined;
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  if (await atHead(db, migrationTableSchema)) return [];
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when the database has run exactly this version's migrations, read in one query: a restart has
 *  nothing to migrate, so it skips the Migrator, whose check is a catalogue read of every table, its lock
 *  (on PostgreSQL an advisory lock another instance's migration holds until it ends) and a transaction.
 *  Anything else (a new database, a migration to run, one the code does not know) goes to the Migrator,
 *  which migrates under its lock or refuses. */
async function atHead(db: DB, schema: string | undefined): Promise<boolean> {
  const table = schema ? sql`${sql.id(schema)}.kysely_migration` : sql`kysely_migration`;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    const applied = rows.map((r) => r.name).sort();
    return applied.length === MIGRATION_NAMES.length && applied.every((name, i) => name === MIGRATION_NAMES[i]);
  } catch {
    return false; // no bookkeeping table yet: a new database
  }
}
