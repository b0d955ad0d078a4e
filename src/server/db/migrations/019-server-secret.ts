import type { Kysely } from 'kysely';
import { INT } from '../dialect';

// The key of request fingerprints, one row for every instance of the database (lib/secret.ts,
// docs/decisions/0025-shared-secret.md): `key` when the database keeps it (no SECRET_KEY), null when the
// operator supplies SECRET_KEY; `check_hash` is an HMAC of a fixed text under the key, so an instance can
// tell whether its key is the one the others use without the database holding a supplied key.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_secret')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text')
    .addColumn('check_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_secret').execute();
}
