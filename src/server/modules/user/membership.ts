import type { Deps } from '../../env';
import type { Membership } from '../../../shared/schemas/user';
import { completedPurchaseCents } from '../order/transitions';

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
