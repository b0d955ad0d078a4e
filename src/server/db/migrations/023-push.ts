import type { Kysely } from 'kysely';
import { idColumn, idType, INT } from '../dialect';

// Web Push (docs/decisions/0033-web-push.md). `push_subscriptions`: one row per device that turned
// notifications on (the push service's endpoint is the device), with its keys and the language it reads.
// `push_queue`: one row per notice and device, written in the transaction that writes the notice, so a
// committed notice is always pushed and a rolled-back one never is; the sender claims a row for a lease
// (`claimed_until`), sends, and deletes it, or puts it back with a later `next_at` after a 5xx.
// `notifications.url`: the screen a notice opens (inbox and push). `notice_reminders`: each reminder the
// scheduler sent, once per order and kind whichever instance ran it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').columns(['user_id', 'id']).execute();
  await db.schema
    .createTable('push_queue')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('subscription_id', INT, (c) => c.notNull())
    .addColumn('notification_id', INT, (c) => c.notNull())
    .addColumn('attempts', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', INT, (c) => c.notNull())
    .addColumn('claimed_until', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_queue_due').on('push_queue').columns(['next_at', 'id']).execute();
  await db.schema.alterTable('notifications').addColumn('url', 'text').execute();
  await db.schema
    .createTable('notice_reminders')
    .addColumn('order_id', INT, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('notice_reminders_pkey', ['order_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notice_reminders').execute();
  await db.schema.alterTable('notifications').dropColumn('url').execute();
  await db.schema.dropTable('push_queue').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
