import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';
import { ICC_RULES } from '../../../shared/icc/current-rules';
import { capFigures, ICC_COLUMNS, iccFactsOf, judgeIcc } from '../../../shared/icc/engine';
import { surrenderedForYear, taxableFor } from '../retire/icc-count';
import type { IccCap } from '../../../shared/schemas/icc';

// An account's Singapore carbon-tax cap for a compliance year (docs/product.md#singapore-carbon-tax): 5% of
// the taxable emissions it entered, the eligible tons it holds, the tons it retired for the year (counted
// once cancelled on the registry; those waiting beside them), and what room is left once the waiting ones
// count too (docs/product.md#registry-cancellation). Read by the cap screen and, inside a retirement's write transaction, for its warning.

const FACTS = ICC_COLUMNS.map((c) => `p.${c}` as const);

/** The tons the account holds of projects the rules find eligible now. */
async function heldEligible(db: DB | Tx, userId: number): Promise<number> {
  const rows = await db
    .selectFrom('credit_holdings as h')
    .innerJoin('projects as p', 'p.id', 'h.project_id')
    .select(FACTS)
    .select(sql<number>`sum(h.tons)`.as('tons'))
    .where('h.user_id', '=', userId)
    .groupBy(['p.id', ...FACTS])
    .execute();
  return rows.filter((r) => judgeIcc(iccFactsOf(r), ICC_RULES).verdict === 'eligible').reduce((sum, r) => sum + Number(r.tons), 0);
}

export async function capOf(db: DB | Tx, userId: number, year: number): Promise<IccCap> {
  const [taxable, { retired, pending }, held] = await Promise.all([taxableFor(db, userId, year), surrenderedForYear(db, userId, year), heldEligible(db, userId)]);
  return { year, taxable_tons: taxable, ...capFigures(taxable, retired + pending), held_eligible_tons: held, retired_tons: retired, pending_tons: pending, rules_version: ICC_RULES.version };
}
