import { sql, type Kysely } from 'kysely';
import { idColumn, idType, INT } from '../dialect';

// The test mode's sandbox (docs/decisions/0043-integrators-api.md): an account's play orders and play
// retirements live in tables of their own, so no live read (orders, holdings, retirements, transparency,
// carbon tax, evidence packs, supply) can ever count them, and no sandbox read can see a live row. The
// sandbox's money and credits are ledger accounts of the one ledger: the account's own under the owner
// -account_id (never a user id), against the platform's sandbox_* accounts, opened here, so the live
// platform accounts never move.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_orders')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('account_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons > 0`))
    .addColumn('unit_price', INT, (c) => c.notNull())
    .addColumn('total', INT, (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_orders_account').on('sandbox_orders').columns(['account_id', 'id']).execute();
  await db.schema
    .createTable('sandbox_retirements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons > 0`))
    .addColumn('beneficiary', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('beneficiary_hidden', INT, (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_retirements_account').on('sandbox_retirements').columns(['account_id', 'created_at']).execute();
  for (const [name, unit] of [
    ['sandbox_bank', 'cents'],
    ['sandbox_sales', 'cents'],
    ['sandbox_registry', 'tons'],
    ['sandbox_retired', 'tons'],
  ] as const) {
    await sql`insert into ledger_accounts (owner_id, name, unit, balance) values (0, ${name}, ${unit}, 0) on conflict do nothing`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from ledger_accounts where owner_id = 0 and name like 'sandbox_%'`.execute(db);
  await db.schema.dropTable('sandbox_retirements').execute();
  await db.schema.dropTable('sandbox_orders').execute();
}
