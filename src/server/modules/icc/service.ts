import { writeTx, type EffectRecord } from '../../db/tx';
import type { Deps } from '../../env';
import type { User } from '../session';
import type { IccCap, IccEmissionsInput } from '../../../shared/schemas/icc';
import { capOf } from './cap';

// The account's side of Singapore carbon tax (docs/product.md#singapore-carbon-tax): its taxable emissions
// per compliance year and the cap they give. Keyed by the account's user id. Only the account's own screens
// show them, and they refetch after a save: no live event.

/** Enters (or replaces) the taxable emissions of a compliance year; answers the year's cap. */
export async function saveEmissions(deps: Deps, user: User, input: IccEmissionsInput, record?: EffectRecord): Promise<IccCap> {
  const { db, clock } = deps;
  return writeTx(
    db,
    async (tx) => {
      const now = clock.now();
      await tx
        .insertInto('icc_emissions')
        .values({ user_id: user.id, year: input.year, taxable_tons: input.taxable_tons, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'year']).doUpdateSet({ taxable_tons: input.taxable_tons, updated_at: now }))
        .execute();
      return capOf(tx, user.id, input.year);
    },
    record,
  );
}
