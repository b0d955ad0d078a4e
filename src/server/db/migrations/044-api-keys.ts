import { sql, type Kysely } from 'kysely';
import { idColumn, idType, INT } from '../dialect';

// The integrators' API keys (docs/product.md#integrators, docs/decisions/0043-integrators-api.md): an
// account's keys, each test or live, with its scopes. Only the SHA-256 of the secret is kept (`secret_hash`,
// unique: a request's key is found by it); `prefix` is the key's first characters, shown in the list.
// `created_by` is the person who made it (the organisation's owner or an admin, or the person herself);
// `expires_at` an end the creator chose or the one a rotation set; `revoked_at` ends it at once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('account_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('created_by', INT, (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('expires_at', INT)
    .addColumn('revoked_at', INT)
    .addColumn('last_used_at', INT)
    .addColumn('last_used_ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id', 'id']).execute();
}


export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
