import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// Web Push on a device acting for an organisation (docs/decisions/0033-web-push.md): a device is filed
// under the account whose notices it receives (`user_id`, the organisation's for a member acting for one)
// and now also under the person who turned it on (`person_id`), so removing a member, or her own password
// change, ends the devices she turned on for the organisation. Every device that exists was turned on by
// its account's own login (organisations came with no device of a member), so the backfill is the account.
// `push_queue_subscription`: removing a device removes its queued pushes by this column.
//
// The same for monthly offset plans (docs/decisions/0035-monthly-offset.md): `offset_plans.made_by` is the
// person whose payment password gave the plan's consent, so the plan pauses when she no longer trades for
// its account. The backfill is the account's own login (the owner, for an organisation).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_subscriptions').addColumn('person_id', INT, (c) => c.notNull().defaultTo(0)).execute();
  await sql`update push_subscriptions set person_id = user_id`.execute(db);
  await db.schema.createIndex('push_subscriptions_person').on('push_subscriptions').columns(['person_id', 'user_id']).execute();
  await db.schema.createIndex('push_queue_subscription').on('push_queue').columns(['subscription_id']).execute();
  await db.schema.alterTable('offset_plans').addColumn('made_by', INT, (c) => c.notNull().defaultTo(0)).execute();
  await sql`update offset_plans set made_by = user_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('offset_plans').dropColumn('made_by').execute();
  await db.schema.dropIndex('push_queue_subscription').execute();
  await db.schema.dropIndex('push_subscriptions_person').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('person_id').execute();
}
