import { type Kysely } from 'kysely';

// The operator audit (docs/product.md#operators): every operator change already leaves a row in operator_log
// (who, when, which command, its arguments and outcome). A change also records what it changed: `target`
// names the row ('project:12', 'news:3', 'user:7', 'notice:all'), `before` and `after` hold its fields as
// JSON (null before a create, null after a withdrawal). Listed by `ops audit:list`, by target or newest
// first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('operator_log')
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('operator_log').addColumn('before', 'text').execute();
  await db.schema.alterTable('operator_log').addColumn('after', 'text').execute();
  await db.schema.createIndex('operator_log_target').on('operator_log').columns(['target', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('operator_log_target').execute();
  for (const column of ['after', 'before', 'target']) await db.schema.alterTable('operator_log').dropColumn(column).execute();
}
