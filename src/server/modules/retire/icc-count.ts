import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';
import { capFigures, type IccJudgement, type IccReason } from '../../../shared/icc/engine';
import type { IccVerdict } from '../../../shared/icc/values';
import type { RetireAnswer } from '../../../shared/schemas/retire';

// A retirement surrendered for Singapore carbon tax counts against the year's cap (docs/product.md#singapore-carbon-tax).
// These reads live with the retirements they sum; the icc module's cap screen reads them too.

/** The tons an account retired for Singapore carbon tax for a year that the surrender found eligible: the
 *  verdict kept with each surrender (retirement_icc), never today's rules. */
export async function retiredForYear(db: DB | Tx, userId: number, year: number): Promise<number> {
  const row = await db
    .selectFrom('retirements as r')
    .innerJoin('retirement_icc as ri', 'ri.retirement_id', 'r.id')
    .select(sql<number>`coalesce(sum(r.tons), 0)`.as('n'))
    .where('r.user_id', '=', userId)
    .where('r.icc_year', '=', year)
    .where('ri.verdict', '=', 'eligible')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A surrender's kept verdict as the engine gave it. */
export function keptJudgement(row: { verdict: IccVerdict; reasons: string; rules_version: string }): IccJudgement {
  return { verdict: row.verdict, reasons: JSON.parse(row.reasons) as IccReason[], rules_version: row.rules_version };
}

/** The taxable emissions an account entered for a year, or null. */
export async function taxableFor(db: DB | Tx, userId: number, year: number): Promise<number | null> {
  const row = await db.selectFrom('icc_emissions').select('taxable_tons').where('user_id', '=', userId).where('year', '=', year).executeTakeFirst();
  return row ? Number(row.taxable_tons) : null;
}

/** A surrender's place under the year's cap, itself counted: over_tons > 0 is the warning that the tons
 *  retired for the year pass the cap. */
export async function iccCount(tx: Tx, userId: number, year: number): Promise<RetireAnswer['icc']> {
  const [taxable, retired] = await Promise.all([taxableFor(tx, userId, year), retiredForYear(tx, userId, year)]);
  const { cap_tons, over_tons } = capFigures(taxable, retired);
  return { year, taxable_tons: taxable, cap_tons, retired_tons: retired, over_tons };
}
