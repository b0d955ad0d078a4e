import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// PayNow top-ups and bank statement reconciliation (docs/product.md#top-ups).
//
// topups gains:
// - ref_key: the reference as matching compares it (upper case, spaces dropped), unique among the top-ups
//   that hold one. A top-up created for a second payment under a reference, or assigned by hand, holds none
//   (null: unique indexes let nulls repeat on SQLite and PostgreSQL alike). Existing rows get theirs when
//   no older row has the same one, so old pending top-ups can still be matched.
// - expires_at: when the request goes stale (null for rows from before).
// - flag: why a credited top-up needs a look: '' (exact), 'amount' (another amount came), 'late' (it came
//   after the expiry), 'double' (a second payment under a reference), 'manual' (assigned by an operator).
// - first_topup_id: for 'double', the top-up whose reference the payment carried.
// - received_amount: what the bank statement brought (null until then); the ledger credits this.
//
// statement_lines: every credit line of an imported bank statement, once: `identity` (the bank's transaction
// id, else a hash of date, descriptions, amount and running balance) is unique, and a line is inserted in
// the same transaction as its credit, so a line is credited exactly once, ever.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('topups').addColumn('ref_key', 'text').execute();
  await db.schema.alterTable('topups').addColumn('expires_at', INT).execute();
  await db.schema.alterTable('topups').addColumn('flag', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('topups').addColumn('first_topup_id', INT).execute();
  await db.schema.alterTable('topups').addColumn('received_amount', INT).execute();
  // Top-ups from before this migration keep ref_key null: their references were free text ("PayNow",
  // "transfer"...) that bank lines carry by chance, and matching must never credit a stranger's payment to
  // them. They are confirmed by hand (ops topup:confirm).
  await db.schema.createIndex('topups_ref_key').on('topups').column('ref_key').unique().execute();
  await db.schema.createIndex('topups_first').on('topups').column('first_topup_id').execute();

  await db.schema
    .createTable('statement_lines')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('identity', 'text', (c) => c.notNull().unique())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('booked_on', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount', INT, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('balance', INT)
    .addColumn('bank_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('matched','flagged','unmatched','assigned')`))
    .addColumn('topup_id', INT)
    .addColumn('user_id', INT)
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('decided_at', INT)
    .execute();
  await db.schema.createIndex('statement_lines_status').on('statement_lines').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('statement_lines').execute();
  await db.schema.dropIndex('topups_first').execute();
  await db.schema.dropIndex('topups_ref_key').execute();
  for (const column of ['received_amount', 'first_topup_id', 'flag', 'expires_at', 'ref_key']) await db.schema.alterTable('topups').dropColumn(column).execute();
}
