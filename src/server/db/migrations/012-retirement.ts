import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// Retirements (docs/product.md#retirement): credits retired on a beneficiary's behalf, with a public
// certificate.
//
// projects gain `registry` (the registry that lists the project: Verra for VCS, Gold Standard) and `country`,
// the two facts a certificate names that the table lacked (registry_id, methodology and vintage were there).
// Existing rows get them from what they already hold: the registry from `standard`, the country from the
// last part of `location` ("Central Kalimantan, Indonesia" -> "Indonesia").
//
// retirements: one row per retirement; the id is 128 random bits as base64url (22 characters), the only
// key a certificate is found by, so ids cannot be walked. Never updated or deleted.
//
// retirement_serials: the serial ranges a retirement took, per project: sequences first_seq..last_seq of the
// project's 1..total_tons. The allocation happens in the retirement's write transaction (no other writer),
// and the unique (project_id, first_seq) and (project_id, last_seq) back it up; ledger:check proves no
// two ranges of a project overlap. Never updated or deleted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('registry', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('projects').addColumn('country', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`update projects set registry = case when standard = 'VCS' then 'Verra' else standard end where registry = ''`.execute(db);
  const rows = (await sql<{ id: number; location: string }>`select id, location from projects where country = ''`.execute(db)).rows;
  for (const r of rows) {
    const country = (r.location.split(',').at(-1) ?? '').trim();
    if (country) await sql`update projects set country = ${country} where id = ${r.id}`.execute(db);
  }

  await db.schema
    .createTable('retirements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons > 0`))
    .addColumn('beneficiary', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('entry_id', INT, (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('retirements_user').on('retirements').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('retirements_project').on('retirements').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('retirements_created').on('retirements').column('created_at').execute();

  await db.schema
    .createTable('retirement_serials')
    .addColumn('retirement_id', 'text', (c) => c.notNull().references('retirements.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('first_seq', INT, (c) => c.notNull())
    .addColumn('last_seq', INT, (c) => c.notNull())
    .addCheckConstraint('retirement_serials_range', sql`first_seq >= 1 and last_seq >= first_seq`)
    .addUniqueConstraint('retirement_serials_first', ['project_id', 'first_seq'])
    .addUniqueConstraint('retirement_serials_last', ['project_id', 'last_seq'])
    .execute();
  await db.schema.createIndex('retirement_serials_retirement').on('retirement_serials').column('retirement_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retirement_serials').execute();
  await db.schema.dropTable('retirements').execute();
  await db.schema.alterTable('projects').dropColumn('country').execute();
  await db.schema.alterTable('projects').dropColumn('registry').execute();
}
