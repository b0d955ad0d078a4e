import { sql, type Kysely } from 'kysely';

// The order path: cheaper index upkeep and an index-only limit check.
//
// orders_used_tons replaces orders_user_project (user_id, project_id, created_at). The buy's checks sum a
// user's tons of a project (this month and in all, modules/order/facts.ts purchaseFactsQuery) inside the write
// transaction; with every column the sum reads in the index it is answered from the index alone instead of
// one table row per earlier order (the order bench: 64 users each buying one project thousands of times).
//
// The scheduler's final-payment and settlement indexes become partial: only pre-sales awaiting payment have
// a final_deadline and only sales a settle_at, so a purchase (most orders) no longer writes an entry into
// either. Its queries (`final_deadline <= ?`, `settle_at <= ?`) imply IS NOT NULL, so both databases still
// use them (tests/server/scheduler-index.test.ts reads the plans).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_user_project').execute();
  await db.schema
    .createIndex('orders_used_tons')
    .on('orders')
    .columns(['user_id', 'project_id', 'side', 'status', 'created_at', 'kind', 'tons', 'final_tons'])
    .execute();
  await db.schema.dropIndex('orders_due_deadline').execute();
  await db.schema.createIndex('orders_due_deadline').on('orders').columns(['status', 'final_deadline']).where(sql.ref('final_deadline'), 'is not', null).execute();
  await db.schema.dropIndex('orders_due_settle').execute();
  await db.schema.createIndex('orders_due_settle').on('orders').columns(['status', 'settle_at']).where(sql.ref('settle_at'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_due_settle').execute();
  await db.schema.createIndex('orders_due_settle').on('orders').columns(['status', 'settle_at']).execute();
  await db.schema.dropIndex('orders_due_deadline').execute();
  await db.schema.createIndex('orders_due_deadline').on('orders').columns(['status', 'final_deadline']).execute();
  await db.schema.dropIndex('orders_used_tons').execute();
  await db.schema.createIndex('orders_user_project').on('orders').columns(['user_id', 'project_id', 'created_at']).execute();
}
