import { sql, type Kysely } from 'kysely';
import { idColumn, idType, INT } from '../dialect';

// Receipts (docs/product.md#receipts): one row per money event of an account, numbered 1, 2, 3... per
// account without gaps or repeats (a per-account counter row moved in the event's write transaction), and
// the mail that carries it: an outbox row written in the same transaction, claimed and sent by one
// instance's mail job (docs/decisions/0036-receipts.md). The account holder's language picks the mail's.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receipt_counters')
    .addColumn('owner_id', INT, (c) => c.primaryKey())
    .addColumn('last', INT, (c) => c.notNull().check(sql`last >= 1`))
    .execute();
  await db.schema
    .createTable('receipts')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('owner_id', INT, (c) => c.notNull())
    .addColumn('number', INT, (c) => c.notNull().check(sql`number >= 1`))
    .addColumn('entry_id', INT, (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_type', 'text', (c) => c.notNull())
    .addColumn('ref_id', INT, (c) => c.notNull())
    .addColumn('total', INT, (c) => c.notNull().check(sql`total >= 0`))
    .addColumn('fee', INT, (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons >= 0`))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addUniqueConstraint('receipts_owner_number', ['owner_id', 'number'])
    .execute();
  await db.schema.createIndex('receipts_by_ref').on('receipts').columns(['ref_type', 'ref_id']).execute();
  await db.schema.alterTable('outbox').addColumn('receipt_id', INT).execute();
  await db.schema.alterTable('outbox').addColumn('attempted_at', INT).execute();
  // The mail job's queue: unsent receipt mail not yet attempted, oldest first.
  await sql`create index outbox_to_send on outbox (id) where receipt_id is not null and attempted_at is null`.execute(db);
  await db.schema
    .alterTable('users')
    .addColumn('lang', 'text', (c) => c.notNull().defaultTo('en').check(sql`lang in ('en', 'cn')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('lang').execute();
  await db.schema.dropIndex('outbox_to_send').execute();
  await db.schema.alterTable('outbox').dropColumn('attempted_at').execute();
  await db.schema.alterTable('outbox').dropColumn('receipt_id').execute();
  await db.schema.dropTable('receipts').execute();
  await db.schema.dropTable('receipt_counters').execute();
}
