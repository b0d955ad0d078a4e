import { type Kysely } from 'kysely';

// Indexes for the retention job (scheduler/retention.ts): it deletes by age, so each pruned table is
// reached by its time column instead of a full scan.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('live_events_created').on('live_events').column('created_at').execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('outbox_sent').on('outbox').column('sent_at').execute();
  await db.schema.createIndex('verification_codes_expires').on('verification_codes').column('expires_at').execute();
  await db.schema.createIndex('rate_events_created').on('rate_events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['live_events_created', 'idempotency_keys_created', 'sessions_expires', 'outbox_sent', 'verification_codes_expires', 'rate_events_created']) {
    await db.schema.dropIndex(name).execute();
  }
}
