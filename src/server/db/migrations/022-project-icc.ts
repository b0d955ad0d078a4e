import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// The facts Singapore's carbon tax judges a project's credits by (docs/product.md#singapore-carbon-tax): host
// country (ISO 3166-1 alpha-2), crediting programme, methodology identifier and the date of the version
// used, the emission-reduction period in years, and the host country's authorisation and corresponding
// adjustment, each with its reference when known. The verdict itself is not stored: it is computed from
// these facts and the rules file, so a new rules file re-judges every project without a migration.
// Rows written before get the host country of their country's name; every other fact stays unknown until
// an operator fills it.
const ISO: Record<string, string> = {
  Indonesia: 'ID',
  Vietnam: 'VN',
  Cambodia: 'KH',
  Malaysia: 'MY',
  Philippines: 'PH',
  India: 'IN',
  Laos: 'LA',
  Thailand: 'TH',
  Fiji: 'FJ',
  Singapore: 'SG',
  Ghana: 'GH',
};

const STATUSES = `('unknown', 'none', 'pending', 'granted')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = (name: string) => db.schema.alterTable('projects').addColumn(name, 'text', (c) => c.notNull().defaultTo('')).execute();
  await text('host_country');
  await text('programme');
  await text('methodology_id');
  await text('methodology_date');
  await db.schema.alterTable('projects').addColumn('reduction_start', INT).execute();
  await db.schema.alterTable('projects').addColumn('reduction_end', INT).execute();
  for (const name of ['authorisation', 'adjustment']) {
    await db.schema
      .alterTable('projects')
      .addColumn(name, 'text', (c) => c.notNull().defaultTo('unknown').check(sql`${sql.ref(name)} in ${sql.raw(STATUSES)}`))
      .execute();
    await text(`${name}_ref`);
  }
  for (const [country, code] of Object.entries(ISO)) {
    await sql`update projects set host_country = ${code} where country = ${country} and host_country = ''`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['adjustment_ref', 'adjustment', 'authorisation_ref', 'authorisation', 'reduction_end', 'reduction_start', 'methodology_date', 'methodology_id', 'programme', 'host_country']) {
    await db.schema.alterTable('projects').dropColumn(name).execute();
  }
}
