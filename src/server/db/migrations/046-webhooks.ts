import { sql, type Kysely } from 'kysely';
import { INT, idColumn, idType } from '../dialect';

// Webhooks (docs/product.md#webhooks, docs/decisions/0044-webhooks.md), per Standard Webhooks.
// `webhook_endpoints`: an account's receivers (owner_id: the users.id whose money it is, a person's or an
// organisation's account, as ledger_accounts.owner_id), one mode each, with the events it takes (a JSON
// array) and its signing secret (base64, kept as is: signing needs it; `previous_secret` signs as well
// until `previous_until` after a rotation). `webhook_events`: one row per event, written in the transaction
// of its effect; `msg_id` is the `webhook-id` every delivery and retry of it carries. `webhook_deliveries`:
// the outbox, one row per event and endpoint that takes it, claimed by a sender for a lease
// (`claimed_until`) as push_queue is. `webhook_attempts`: the delivery log, one row per HTTP try.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('owner_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_until', INT)
    .addColumn('created_by', INT, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('disabled_at', INT)
    .execute();
  await db.schema.createIndex('webhook_endpoints_owner').on('webhook_endpoints').columns(['owner_id', 'mode']).execute();
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('msg_id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', INT, (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('endpoint_id', INT, (c) => c.notNull())
    .addColumn('event_id', INT, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', INT, (c) => c.notNull())
    .addColumn('claimed_until', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('settled_at', INT)
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('delivery_id', INT, (c) => c.notNull())
    .addColumn('endpoint_id', INT, (c) => c.notNull())
    .addColumn('attempt', INT, (c) => c.notNull())
    .addColumn('status_code', INT, (c) => c.notNull())
    .addColumn('latency_ms', INT, (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_endpoint').on('webhook_attempts').columns(['endpoint_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_endpoints']) await db.schema.dropTable(table).execute();
}
