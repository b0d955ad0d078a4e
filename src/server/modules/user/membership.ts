import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';
import type { Deps } from '../../env';
import type { Membership } from '../../../shared/schemas/user';

// The membership grade follows completed purchases (docs/product.md#membership). The figure is read here,
// with the membership, and the order module asks for it when an order completes (order/transitions.ts):
// orders import the user module, never the other way round.

/**
 * GET user/membership: the grade ladder as configured (GRADE_THRESHOLDS_CENTS, SELL_MIN_GRADE,
 * PRESALE_SELL_MIN_GRADE), so the app shows amounts instead of words, and how far this member is from the
 * next grade. The grade itself is the stored one: purchases only ever raise it, an operator may set any.
 */
export async function membershipOf(deps: Deps, user: { id: number; grade: number }): Promise<Membership> {
  const { config, db } = deps;
  const thresholds = config.GRADE_THRESHOLDS_CENTS;
  const purchases = await completedPurchaseCents(db, user.id);
  const grades = [{ grade: 0, min_purchases: 0 }, ...thresholds.map((min, i) => ({ grade: i + 1, min_purchases: min }))];
  const above = grades.find((g) => g.grade > user.grade);
  return {
    grade: user.grade,
    purchases,
    grades,
    next: above ? { ...above, remaining: Math.max(0, above.min_purchases - purchases) } : null,
    sell_min_grade: config.SELL_MIN_GRADE,
    presale_sell_min_grade: config.PRESALE_SELL_MIN_GRADE,
  };
}

/** A user's completed purchases in cents, the figure the grade follows (a pre-sale counts at its final price). */
export async function completedPurchaseCents(db: DB | Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select(sql<number>`coalesce(sum(case when kind = 'presale' then coalesce(final_tons, 0) * coalesce(final_unit_price, 0) else total end), 0)`.as('cents'))
    .where('user_id', '=', userId)
    .where('side', '=', 'buy')
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}
