import { sql, type Kysely } from 'kysely';

// The outbox's queue is every row not yet claimed: a write transaction's mail (a receipt's, an organisation's
// invitation) waits there for the mail job (docs/decisions/0036-receipts.md); mail the mailer sends at once is
// claimed when it is written. Rows written before by the mailer are marked claimed, so the job never sends
// an old code again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update outbox set attempted_at = created_at where receipt_id is null and attempted_at is null`.execute(db);
  await sql`create index outbox_queued on outbox (id) where attempted_at is null`.execute(db);
  await db.schema.dropIndex('outbox_to_send').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index outbox_to_send on outbox (id) where receipt_id is not null and attempted_at is null`.execute(db);
  await db.schema.dropIndex('outbox_queued').execute();
}
