import { AppError } from '../../lib/http';
import { joinBlock, type ProjectRow } from '../project/service';
import type { User } from '../session';
import { assertNotRisk } from '../user/trade-password';
import { OFFSET_PLANS_MAX } from '../../../shared/offset';
import type { OffsetPlansTable } from '../../db/schema';
import type { Selectable } from 'kysely';

// The monthly offset's own checks (docs/product.md#monthly-offset): pure functions of what the use case
// read. Each month's buy is checked by the buy's own checkPurchase (order/checks.ts), not here.

const BLOCK_KEYS = { not_started: 'project_not_started', ended: 'project_ended', full: 'project_full', paused: 'project_sales_paused' } as const;

export type PlanRow = Selectable<OffsetPlansTable>;

export interface SubscribeFacts {
  /** The project, when it exists and is listed. */
  p: ProjectRow | undefined;
  /** Her plans that are not cancelled. */
  openPlans: number;
}

/** A plan may be taken on a project in progress that she could buy from now: not risk, not trading-locked,
 *  the tons within the project's bounds per order, her grade. Balance, limits and remaining tons are
 *  each month's to check. */
export function checkSubscribe(facts: SubscribeFacts, user: User, tons: number, now: number, newPlan: boolean): ProjectRow {
  assertNotRisk(user);
  if (user.trade_locked) throw new AppError('account_locked');
  const { p } = facts;
  if (!p || p.status === 'pending_review') throw new AppError('not_found');
  const block = joinBlock(p, now);
  if (block) throw new AppError(BLOCK_KEYS[block]);
  if (p.status !== 'in_progress') throw new AppError('project_not_started');
  if (tons < p.min_tons) throw new AppError('below_min_tons', { n: p.min_tons });
  if (tons > p.max_tons) throw new AppError('above_max_tons', { n: p.max_tons });
  if (user.grade < p.required_grade) throw new AppError('grade_not_met');
  if (newPlan && facts.openPlans >= OFFSET_PLANS_MAX) throw new AppError('offset_plans_limit', { n: OFFSET_PLANS_MAX });
  return p;
}

/** Her own plan, and one she may still change: another member's id reads as not found. */
export function checkOwnPlan(plan: PlanRow | undefined, user: User): PlanRow {
  if (!plan || plan.user_id !== user.id) throw new AppError('offset_plan_not_found');
  if (plan.status === 'cancelled') throw new AppError('offset_cancelled');
  return plan;
}
