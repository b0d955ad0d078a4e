import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// Singapore carbon tax for an account (docs/product.md#singapore-carbon-tax), keyed by the account's user id.
//
// icc_emissions: the taxable emissions an account enters per compliance year (whole tCO2e); the 5% cap is
// computed from it, never stored. Entered again, the row is replaced.
//
// retirements gain icc_year (the compliance year a retirement is surrendered for, null when it is not) and
// icc_rules_version (the rules file that found its credits eligible at the retirement): written once, like
// the rest of the append-only row.
//
// icc_packs: every evidence pack issued, by the SHA-256 of its bytes: the public verify page answers from
// here that a file with that hash was issued by Canopy, when, and for which account. Never updated.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('icc_emissions')
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('year', INT, (c) => c.notNull().check(sql`year between 2024 and 2100`))
    .addColumn('taxable_tons', INT, (c) => c.notNull().check(sql`taxable_tons >= 0`))
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('icc_emissions_pk', ['user_id', 'year'])
    .execute();
  await db.schema
    .alterTable('retirements')
    .addColumn('icc_year', INT, (c) => c.check(sql`icc_year between 2024 and 2100`))
    .execute();
  await db.schema.alterTable('retirements').addColumn('icc_rules_version', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('retirements_icc_year').on('retirements').columns(['user_id', 'icc_year']).where(sql.ref('icc_year'), 'is not', null).execute();
  await db.schema
    .createTable('icc_packs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('pdf', 'csv')`))
    .addColumn('period_from', 'text', (c) => c.notNull())
    .addColumn('period_to', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('icc_packs_user').on('icc_packs').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('icc_packs').execute();
  await db.schema.dropIndex('retirements_icc_year').execute();
  await db.schema.alterTable('retirements').dropColumn('icc_rules_version').execute();
  await db.schema.alterTable('retirements').dropColumn('icc_year').execute();
  await db.schema.dropTable('icc_emissions').execute();
}
