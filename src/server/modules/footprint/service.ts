import type { Selectable } from 'kysely';
import type { Deps } from '../../env';
import { writeTx, type EffectRecord } from '../../db/tx';
import type { FootprintsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import type { PageQuery } from '../../db/paging';
import { pageOf } from '../../db/paging';
import type { User } from '../session';
import type { Paged } from '../../../shared/api';
import { computeFootprint, FOOTPRINT_FACTORS } from '../../../shared/footprint/compute';
import type { FootprintAnswers, FootprintBreakdown, FootprintRecord } from '../../../shared/schemas/footprint';

// Saved carbon footprints (docs/product.md#carbon-footprint). The result is always computed here from the
// answers, with the same pure function the app uses offline; a figure the client sends is never stored.

type FootprintRow = Selectable<FootprintsTable>;

/** A row as the API answers it. The comparison uses the current Singapore average: it is a fact about the
 *  country, not about the saved answers. */
function footprintRecord(row: FootprintRow): FootprintRecord {
  const sg_average_kg = Math.round(FOOTPRINT_FACTORS.factors.sg_average.value * 1000);
  return {
    id: row.id,
    answers: JSON.parse(row.answers) as FootprintAnswers,
    total_kg: row.total_kg,
    total_tonnes: Math.round(row.total_kg / 100) / 10,
    breakdown: JSON.parse(row.breakdown) as FootprintBreakdown,
    sg_average_kg,
    ratio_to_sg_average: Math.round((row.total_kg / sg_average_kg) * 100) / 100,
    factors_version: row.factors_version,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
  };
}

/** Computes and saves one result. The answer is built inside the transaction, so it is stored with the
 *  request's Idempotency-Key as it commits (a retry gets the same record back). */
export async function saveFootprint(deps: Deps, user: User, answers: FootprintAnswers, record?: EffectRecord): Promise<FootprintRecord> {
  const result = computeFootprint(answers);
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx) => {
    const row = await tx
      .insertInto('footprints')
      .values({
        user_id: user.id,
        answers: JSON.stringify(answers),
        total_kg: result.total_kg,
        breakdown: JSON.stringify(result.breakdown),
        factors_version: result.factors_version,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return footprintRecord(row);
  }, record);
}

/** One user's saved results, newest first. */
export function listFootprints(deps: Deps, user: User, q: PageQuery): Promise<Paged<FootprintRecord>> {
  const base = deps.db.selectFrom('footprints').where('user_id', '=', user.id);
  return pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), footprintRecord);
}
