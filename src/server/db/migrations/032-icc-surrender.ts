import { sql, type Kysely } from 'kysely';
import { appendOnly, dropAppendOnly } from '../dialect';

// The verdict of a surrender for Singapore carbon tax (docs/product.md#singapore-carbon-tax,
// docs/decisions/0032-carbon-tax.md): the eligibility verdict, its reasons (a JSON array of {code, source})
// and the rules version, as the retirement's own transaction judged them. The evidence pack and the cap read
// them from here, so a later rules file never re-judges a surrender an auditor already accepted.
//
// A table of its own beside retirements: retirements are append-only (migration 015) and their rows cannot
// be updated to fill the new facts for surrenders written before; here they are inserted. This table is
// append-only too.
//
// Surrenders written before this migration were refused unless the rules found them eligible (checks.ts),
// and their rules version is on the retirement: they get "eligible", no reasons, that version.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('retirement_icc')
    .addColumn('retirement_id', 'text', (c) => c.primaryKey().references('retirements.id'))
    .addColumn('verdict', 'text', (c) => c.notNull().check(sql`verdict in ('eligible', 'not_eligible', 'unknown')`))
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('rules_version', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into retirement_icc (retirement_id, verdict, reasons, rules_version)
            select id, 'eligible', '[]', icc_rules_version from retirements where icc_year is not null`.execute(db);
  await appendOnly(db, 'retirement_icc');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropAppendOnly(db, 'retirement_icc');
  await db.schema.dropTable('retirement_icc').execute();
}
