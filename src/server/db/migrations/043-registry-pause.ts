import { type Kysely } from 'kysely';
import { INT } from '../dialect';

// A project whose registry holding is smaller than what Canopy counts stops selling
// (docs/product.md#registry-cancellation): sales_paused_at is when a reconciliation found it, null when the
// project sells; sales_paused_note is the difference found (for the operator; the app shows the catalogue's
// reason). Cleared by registry:resume.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('sales_paused_at', INT).execute();
  await db.schema.alterTable('projects').addColumn('sales_paused_note', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('sales_paused_note').execute();
  await db.schema.alterTable('projects').dropColumn('sales_paused_at').execute();
}
