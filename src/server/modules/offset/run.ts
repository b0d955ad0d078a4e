import type { Deps } from '../../env';
import { writeTx, type EffectRecord, type WriteScope } from '../../db/tx';
import { AppError } from '../../lib/http';
import { claimDerivedKey, KeyTaken } from '../../lib/idempotency';
import { serverSecret } from '../../lib/secret';
import { publish } from '../../live/events';
import { commitPurchase } from '../order/purchase';
import { notify } from '../../live/notices';
import { insertActivity } from '../../lib/activity';
import { formatSgd } from '../../../shared/money';
import { ERRORS, errorMessage, type ErrorKey, type MessageParams } from '../../../shared/errors';
import { nextMonth, offsetDueAt, sgtMonth } from '../../../shared/offset';
import type { Order } from '../../../shared/schemas/order';
import type { PlanRow } from './checks';
import { makerTrades, pauseMakerPlans } from './maker';

// Each month's buy of a plan (docs/product.md#monthly-offset, docs/decisions/0035-monthly-offset.md). The
// buy is the buy use case's own commit (order/purchase.ts commitPurchase: the same facts, the same
// checkPurchase in its write transaction: risk, lock, project open, bounds, grade, limits, remaining tons,
// balance); the payment password is the consent given when she subscribed. Exactly one outcome a plan and
// month, whichever instances tick and whenever one stops: the order, its idempotency key (derived from
// the plan and the month), the month's outcome row and the plan's next due time commit together, and each
// of them refuses a second writer (the key's and the outcome row's primary keys, the due time's
// conditional update), which rolls that writer back. A refusal writes the month's outcome and a notice
// saying why, and the plan waits for the next month.

/** What a tick did with the plans it found due. */
export interface OffsetReport {
  placed: number;
  refused: number;
  failed: number;
  /** The earliest due time among them, or null when none was due. */
  oldestDueAt: number | null;
  /** It stopped at its bound with due plans left. */
  more: boolean;
}

/** Another writer decided this plan's month first (or paused, changed or cancelled it): roll back. */
class MonthDecided extends Error {}

/** The idempotency key of a plan's month: a colon keeps it out of the keys a request may send. */
const monthKey = (planId: number, month: string) => `offset:${planId}:${month}`;

/** The month a due plan buys for: its due time's, or, when the servers were stopped past a later month's
 *  day too, the latest month whose day has come (a month nobody ran in is not bought late). */
function monthToRun(plan: PlanRow, dueAt: number, now: number): string {
  let month = sgtMonth(dueAt);
  while (offsetDueAt(nextMonth(month), plan.day) <= now) month = nextMonth(month);
  return month;
}

/** The due time after `month`'s. */
const followingDue = (plan: PlanRow, month: string) => offsetDueAt(nextMonth(month), plan.day);

/** Runs the plans due at `now`, at most `limit` of them, earliest first. One failing plan (the database
 *  away) is logged and tried again on the next tick; the others go on. */
export async function runDueOffsets(deps: Deps, now: number, limit: number): Promise<OffsetReport> {
  const report: OffsetReport = { placed: 0, refused: 0, failed: 0, oldestDueAt: null, more: false };
  const due = await deps.db.selectFrom('offset_plans').select(['id', 'next_run_at']).where('status', '=', 'active').where('next_run_at', '<=', now).orderBy('next_run_at').orderBy('id').limit(limit).execute();
  report.oldestDueAt = due[0]?.next_run_at ?? null;
  report.more = due.length === limit;
  for (const { id } of due) {
    try {
      const outcome = await runPlan(deps, id, now);
      if (outcome === 'placed') report.placed++;
      if (outcome === 'refused') report.refused++;
    } catch (err) {
      report.failed++;
      deps.log.error(`scheduler: offset plan #${id} failed`, err);
    }
  }
  return report;
}

/** One plan's due month: the buy, or the refusal with its notice; 'none' when another writer decided it. */
async function runPlan(deps: Deps, planId: number, now: number): Promise<'placed' | 'refused' | 'none'> {
  const { db } = deps;
  const plan = await db.selectFrom('offset_plans').selectAll().where('id', '=', planId).executeTakeFirst();
  if (!plan || plan.status !== 'active' || plan.next_run_at === null || plan.next_run_at > now) return 'none';
  const month = monthToRun(plan, plan.next_run_at, now);
  const decided = await db.selectFrom('offset_runs').select('plan_id').where('plan_id', '=', plan.id).where('month', '=', month).executeTakeFirst();
  if (decided) {
    // The month has its outcome (a change of day moved the due time back into it): on to the next.
    await writeTx(db, (tx) => tx.updateTable('offset_plans').set({ next_run_at: followingDue(plan, month) }).where('id', '=', plan.id).where('next_run_at', '=', plan.next_run_at).where('status', '=', 'active').execute());
    return 'none';
  }
  if (!(await makerTrades(db, plan))) {
    // Her consent no longer stands for the account (removed, or a role without trade): no buy on it.
    await writeTx(db, (tx, w) => pauseMakerPlans(w, plan.user_id, plan.made_by, deps.clock.now()));
    return 'none';
  }
  const user = await db.selectFrom('users').selectAll().where('id', '=', plan.user_id).executeTakeFirstOrThrow();
  try {
    if (user.disabled) throw new AppError('user_disabled');
    const organisation = await db.selectFrom('organisations').select('account_id').where('account_id', '=', plan.user_id).executeTakeFirst();
    await commitPurchase(deps, user, { project_id: plan.project_id, tons: plan.tons, password: '' }, monthRecord(deps, plan, month, organisation !== undefined));
    // Counted with the order writes (canopy_orders_total), once a plan and month: a month another writer
    // decided is not counted here.
    deps.metrics?.orders.inc({ kind: 'offset', code: '0' });
    return 'placed';
  } catch (err) {
    if (err instanceof KeyTaken || err instanceof MonthDecided) return 'none';
    if (!(err instanceof AppError)) throw err;
    if (!(await recordRefusal(deps, plan, month, err))) return 'none';
    deps.metrics?.orders.inc({ kind: 'offset', code: String(ERRORS[err.key].code) });
    return 'refused';
  }
}

/** The effect record of a month's buy: it ends the buy's write transaction with the month's key, its
 *  outcome row, the plan's next due time and the notice, or rolls the buy back when any was taken. An
 *  organisation's month also leaves its activity row, under the member whose consent the plan runs on
 *  (docs/product.md#organisations), as her own buy would. */
function monthRecord(deps: Deps, plan: PlanRow, month: string, organisation: boolean): EffectRecord {
  let ended = false;
  return {
    begin: () => (ended ? Promise.reject(new Error('a month of a plan commits only one buy')) : Promise.resolve()),
    async end(w: WriteScope, result: unknown) {
      const order = result as Order;
      const now = deps.clock.now();
      await claimDerivedKey(w, serverSecret(deps.config), { userId: plan.user_id, key: monthKey(plan.id, month), endpoint: '/offset/month', payload: { plan_id: plan.id, month }, response: order, now });
      await w.ahead(w.tx.insertInto('offset_runs').values({ plan_id: plan.id, month, outcome: 'placed', order_id: order.id, reason: null, reason_params: null, created_at: now }).onConflict((oc) => oc.columns(['plan_id', 'month']).doNothing()), mustChangeOne);
      await w.ahead(advance(w, plan, month, now), mustChangeOne);
      if (organisation) {
        const activity = { accountId: plan.user_id, memberId: plan.made_by, action: 'offset.month', fields: { plan_id: plan.id, month, project_id: plan.project_id, tons: plan.tons } };
        await w.ahead(insertActivity(w.tx, [{ activity, result: order }], now));
      }
      await notify(w, plan.user_id, placedText(order, plan, month), now);
      await publish(w, { type: 'invalidate', tables: ['offsets'] }, plan.user_id, now);
      ended = true;
    },
    undo: () => {
      ended = false;
    },
  };
}

function mustChangeOne(r: { numAffectedRows?: bigint }): void {
  if (Number(r.numAffectedRows ?? 0) !== 1) throw new MonthDecided();
}

/** The plan's next due time, moved from this month's only if it still is this month's and the plan is
 *  still active (paused, changed or cancelled meanwhile: nothing moves). */
function advance(w: WriteScope, plan: PlanRow, month: string, now: number) {
  return w.tx
    .updateTable('offset_plans')
    .set({ next_run_at: followingDue(plan, month), updated_at: now })
    .where('id', '=', plan.id)
    .where('status', '=', 'active')
    .where('next_run_at', '=', plan.next_run_at);
}

/** The month refused: its outcome and a notice saying why, once (false when another writer decided it). */
async function recordRefusal(deps: Deps, plan: PlanRow, month: string, err: AppError): Promise<boolean> {
  return writeTx(deps.db, async (tx, w) => {
    const now = deps.clock.now();
    const moved = await advance(w, plan, month, now).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    const params = err.params ? JSON.stringify(err.params) : null;
    const row = await tx.insertInto('offset_runs').values({ plan_id: plan.id, month, outcome: 'refused', order_id: null, reason: err.key, reason_params: params, created_at: now }).onConflict((oc) => oc.columns(['plan_id', 'month']).doNothing()).returning('plan_id').executeTakeFirst();
    if (!row) return false;
    const project = await tx.selectFrom('projects').select(['name', 'name_cn']).where('id', '=', plan.project_id).executeTakeFirstOrThrow();
    await notify(w, plan.user_id, refusedText(plan, project, month, err.key, err.params, followingDue(plan, month)), now);
    await publish(w, { type: 'invalidate', tables: ['offsets'] }, plan.user_id, now);
    return true;
  });
}

function placedText(order: Order, plan: PlanRow, month: string) {
  const paid = formatSgd(order.total);
  return {
    title: 'Monthly offset bought',
    title_cn: '每月碳抵消已购买',
    body: `Order ${order.order_no} for ${month}: ${plan.tons} t of ${order.project_name}, ${paid} from your available balance.`,
    body_cn: `${month} 的订单 ${order.order_no}：「${order.project_name_cn}」${plan.tons} 吨，已从可用余额支付 ${paid}。`,
    // The push opens the order among those in progress.
    url: '/pages/profile/order?tab=in_progress',
  };
}

function refusedText(plan: PlanRow, p: { name: string; name_cn: string }, month: string, key: ErrorKey, params: MessageParams | undefined, next: number) {
  const on = new Date(next + 8 * 3_600_000).toISOString().slice(0, 10);
  return {
    title: 'Monthly offset not bought',
    title_cn: '每月碳抵消未购买',
    body: `Nothing was bought for ${month} (${plan.tons} t of ${p.name}): ${errorMessage(key, 'en', params)} We will try again on ${on}.`,
    body_cn: `${month} 未能购买（「${p.name_cn || p.name}」${plan.tons} 吨）：${errorMessage(key, 'cn', params)}我们将于 ${on} 再次尝试。`,
    // The push opens the member's monthly offsets, where the plan can be changed.
    url: '/pages/profile/offsets',
  };
}
