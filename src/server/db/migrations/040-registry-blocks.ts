import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// The platform's holdings as registry blocks (docs/product.md#registry-inventory,
// docs/decisions/0041-registry-inventory.md): each row one range of units in a registry account, written as
// the registry writes it (`serial_range`), with its first and last unit (inclusive), its series (the registry
// and the fixed parts of the format: two blocks of one series whose units intersect are the same credits
// counted twice, which the inventory service refuses in its transaction), the account it sits in and where
// the row came from (an operator's add, an account export's import, or the demo seed).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registry_blocks')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('registry', 'text', (c) => c.notNull())
    .addColumn('serial_range', 'text', (c) => c.notNull())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('first_unit', INT, (c) => c.notNull().check(sql`first_unit >= 1`))
    .addColumn('last_unit', INT, (c) => c.notNull())
    .addColumn('quantity', INT, (c) => c.notNull())
    .addColumn('vintage', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('add', 'import', 'seed')`))
    .addColumn('demo', INT, (c) => c.notNull().defaultTo(0).check(sql`demo in (0, 1)`))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addCheckConstraint('registry_blocks_units', sql`last_unit >= first_unit and quantity = last_unit - first_unit + 1`)
    .execute();
  await db.schema.createIndex('registry_blocks_project').on('registry_blocks').columns(['project_id']).execute();
  // The overlap check reads the blocks of one series around a range.
  await db.schema.createIndex('registry_blocks_series').on('registry_blocks').columns(['series', 'first_unit']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registry_blocks').execute();
}
