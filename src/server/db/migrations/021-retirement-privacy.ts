import { sql, type Kysely } from 'kysely';
import { INT } from '../dialect';

// Whether a retirement's certificate shows its beneficiary as "a Canopy customer" (docs/product.md#retirement):
// chosen once at the retirement and never changed, like the rest of the append-only row; 1 hides the
// beneficiary and the reason from the public certificate, its PDF and every public read.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('retirements')
    .addColumn('beneficiary_hidden', INT, (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`beneficiary_hidden in (0, 1)`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('retirements').dropColumn('beneficiary_hidden').execute();
}
