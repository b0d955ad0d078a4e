import { type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// Idempotency keys: the first successful answer to a write, kept per caller and key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', INT, (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_user_key', ['user_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
