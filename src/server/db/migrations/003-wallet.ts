import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// Wallet (docs/product.md#wallet-and-ledger): the payout account a user binds, top-ups and withdrawals. Money
// moves only through the ledger (fund_logs); these rows are the business records the fund logs point at
// (ref_type/ref_id).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().unique().references('users.id'))
    .addColumn('bank_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('holder_name', 'text', (c) => c.notNull())
    .addColumn('paynow', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addCheckConstraint('bank_accounts_something_bound', sql`(bank_name <> '' and account_no <> '') or paynow <> ''`)
    .execute();

  await db.schema
    .createTable('topups')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('amount', INT, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('paynow','bank')`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending','credited','rejected')`))
    .addColumn('sgt_date', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addColumn('decided_at', INT)
    .execute();
  await db.schema.createIndex('topups_user').on('topups').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('topups_status').on('topups').columns(['status', 'id']).execute();

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('amount', INT, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', INT, (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('bank','paynow')`))
    .addColumn('bank_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('holder_name', 'text', (c) => c.notNull())
    .addColumn('paynow', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('processing','refused','completed')`))
    .addColumn('sgt_date', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addColumn('decided_at', INT)
    .execute();
  await db.schema.createIndex('withdrawals_user').on('withdrawals').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('withdrawals_status').on('withdrawals').columns(['status', 'id']).execute();
  // Once a day (SGT): the database holds the rule too. A refused withdrawal does not count.
  await sql`create unique index withdrawals_one_per_day on withdrawals (user_id, sgt_date) where status <> 'refused'`.execute(db);

  // Money needs the platform side of the ledger (bank, fees...) whether or not the demo seed runs
  // (SEED_DEMO=false in production). The accounts are written out here, not taken from the ledger's
  // list, so this migration does what it did when it first ran; the seed opens any account added since.
  await sql`insert into ledger_accounts (owner_id, name, unit, balance)
    values (0, 'bank', 'cents', 0), (0, 'fees', 'cents', 0), (0, 'forfeits', 'cents', 0), (0, 'sales', 'cents', 0), (0, 'registry', 'tons', 0)
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('withdrawals').execute();
  await db.schema.dropTable('topups').execute();
  await db.schema.dropTable('bank_accounts').execute();
}
