import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';
import { ICC_RULES } from '../../../shared/icc/current-rules';
import { capFigures, sourceCnOf, type IccJudgement, type IccReason } from '../../../shared/icc/engine';
import type { IccVerdict } from '../../../shared/icc/values';
import type { RetireAnswer } from '../../../shared/schemas/retire';

// A retirement surrendered for Singapore carbon tax counts against the year's cap (docs/product.md#singapore-carbon-tax).
// These reads live with the retirements they sum; the icc module's cap screen reads them too.

/** The tons an account surrendered for Singapore carbon tax for a year that the surrender found eligible
 *  (the verdict kept with each surrender, retirement_icc, never today's rules): `retired` those the
 *  registry has cancelled (recorded with registry:cancel), the only ones that count toward the cap, and
 *  `pending` those still waiting to be cancelled on the registry (docs/product.md#registry-cancellation). */
export async function surrenderedForYear(db: DB | Tx, userId: number, year: number): Promise<{ retired: number; pending: number }> {
  const row = await db
    .selectFrom('retirements as r')
    .innerJoin('retirement_icc as ri', 'ri.retirement_id', 'r.id')
    .leftJoin('registry_cancellations as c', 'c.retirement_id', 'r.id')
    .select([sql<number>`coalesce(sum(case when c.recorded_at is not null then r.tons else 0 end), 0)`.as('retired'), sql<number>`coalesce(sum(case when c.recorded_at is null then r.tons else 0 end), 0)`.as('pending')])
    .where('r.user_id', '=', userId)
    .where('r.icc_year', '=', year)
    .where('ri.verdict', '=', 'eligible')
    .executeTakeFirstOrThrow();
  return { retired: Number(row.retired), pending: Number(row.pending) };
}

/** A surrender's kept verdict as the engine gave it; a reason kept with its English citation only gets the
 *  Chinese one from today's rules file where the line is still there. */
export function keptJudgement(row: { verdict: IccVerdict; reasons: string; rules_version: string }): IccJudgement {
  const reasons = (JSON.parse(row.reasons) as Array<Omit<IccReason, 'source_cn'> & { source_cn?: string }>).map((r) => ({
    ...r,
    source_cn: r.source_cn ?? sourceCnOf(r.source, ICC_RULES),
  }));
  return { verdict: row.verdict, reasons, rules_version: row.rules_version };
}

/** The taxable emissions an account entered for a year, or null. */
export async function taxableFor(db: DB | Tx, userId: number, year: number): Promise<number | null> {
  const row = await db.selectFrom('icc_emissions').select('taxable_tons').where('user_id', '=', userId).where('year', '=', year).executeTakeFirst();
  return row ? Number(row.taxable_tons) : null;
}

/** A surrender's place under the year's cap: retired_tons count (cancelled on the registry), pending_tons
 *  (this surrender among them) will once cancelled; over_tons > 0 is the warning, in time, that with those
 *  the year passes the cap. */
export async function iccCount(tx: Tx, userId: number, year: number): Promise<RetireAnswer['icc']> {
  const [taxable, { retired, pending }] = await Promise.all([taxableFor(tx, userId, year), surrenderedForYear(tx, userId, year)]);
  const { cap_tons, over_tons } = capFigures(taxable, retired + pending);
  return { year, taxable_tons: taxable, cap_tons, retired_tons: retired, pending_tons: pending, over_tons };
}
