import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// Marketplace orders (docs/product.md#buying). One table for every order a user places: a purchase by the
// ton, a pre-sale booking (allocated, paid or expired later) and a sell-back. Money in integer cents,
// quantities whole tons, times epoch ms. Per-project credit holdings live in credit_holdings, split by origin
// so the P3 rule for pre-sale credits can be checked when selling; their sum per user always equals the
// ledger's credits.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('buy','sell')`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('purchase','presale','sell')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('applying','in_progress','completed','pending_final_payment','final_payment_made','final_payment_expired')`),
    )
    .addColumn('unit_price', INT, (c) => c.notNull().check(sql`unit_price > 0`))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons > 0`))
    .addColumn('total', INT, (c) => c.notNull().check(sql`total >= 0`))
    .addColumn('booking_fee', INT, (c) => c.notNull().defaultTo(0).check(sql`booking_fee >= 0`))
    .addColumn('final_unit_price', INT)
    .addColumn('final_tons', INT)
    .addColumn('final_amount', INT)
    .addColumn('final_deadline', INT)
    .addColumn('cycle_end', INT)
    .addColumn('presale_tons', INT, (c) => c.notNull().defaultTo(0)) // sell: tons of pre-sale origin sold
    .addColumn('settle_at', INT)
    .addColumn('settled_at', INT)
    .addColumn('completed_at', INT)
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addCheckConstraint('orders_final_tons', sql`final_tons is null or (final_tons >= 0 and final_tons <= tons)`)
    .addCheckConstraint('orders_presale_tons', sql`presale_tons >= 0 and presale_tons <= tons`)
    .execute();
  await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('orders_user_project').on('orders').columns(['user_id', 'project_id', 'created_at']).execute();
  await db.schema.createIndex('orders_project_status').on('orders').columns(['project_id', 'status']).execute();
  // The scheduler's due-work queries.
  await db.schema.createIndex('orders_due_cycle').on('orders').columns(['status', 'cycle_end']).execute();
  await db.schema.createIndex('orders_due_deadline').on('orders').columns(['status', 'final_deadline']).execute();
  await db.schema.createIndex('orders_due_settle').on('orders').columns(['status', 'settle_at']).execute();

  await db.schema
    .createTable('credit_holdings')
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('purchase','presale')`))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons >= 0`))
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_holdings_pk', ['user_id', 'project_id', 'origin'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credit_holdings').execute();
  await db.schema.dropTable('orders').execute();
}
