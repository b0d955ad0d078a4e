import { type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// Saved carbon footprint results (docs/product.md#carbon-footprint). A row keeps the answers as given (JSON
// text), the result the server computed from them (total and breakdown in whole kg CO2e a year), and the
// factor set that computed it, so a later change of factors.json never silently rewrites what a user was
// shown.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('footprints')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('total_kg', INT, (c) => c.notNull())
    .addColumn('breakdown', 'text', (c) => c.notNull())
    .addColumn('factors_version', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  // The list: one user's results, newest first.
  await db.schema.createIndex('footprints_user').on('footprints').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('footprints').execute();
}
