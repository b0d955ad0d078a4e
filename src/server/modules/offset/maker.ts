import type { DB } from '../../db/connection';
import type { Tx, WriteScope } from '../../db/tx';
import { publish } from '../../live/events';
import { notify } from '../../live/notices';
import { roleCan } from '../session';
import type { PlanRow } from './checks';

// Who consented to a plan (docs/product.md#monthly-offset, docs/decisions/0035-monthly-offset.md): each
// month buys on the payment password its maker gave, so a plan an organisation's member set up stops buying
// when she no longer trades for it (removed, or a role without trade). It pauses, the organisation's inbox
// (its owner and admins read it) says so, and it resumes only after a buyer confirms it again with her own
// payment password (a change), which makes her its maker.

/** Whether the plan's maker still trades for its account: the account's own login always does (the owner,
 *  for an organisation); a member while her membership's role allows trade. */
export async function makerTrades(db: DB | Tx, plan: Pick<PlanRow, 'user_id' | 'made_by'>): Promise<boolean> {
  if (plan.made_by === plan.user_id) return true;
  const m = await db.selectFrom('organisation_members').select('role').where('account_id', '=', plan.user_id).where('user_id', '=', plan.made_by).executeTakeFirst();
  return m !== undefined && roleCan(m.role, 'trade');
}

/** Pauses the active plans `personId` made for `accountId`, each with a notice to the account, in the
 *  caller's transaction (a member's removal or new role, or the month's run finding her gone). */
export async function pauseMakerPlans(w: WriteScope, accountId: number, personId: number, now: number): Promise<number> {
  const paused = await w.tx
    .updateTable('offset_plans')
    .set({ status: 'paused', next_run_at: null, updated_at: now })
    .where('user_id', '=', accountId)
    .where('made_by', '=', personId)
    .where('status', '=', 'active')
    .returning(['id', 'project_id', 'tons', 'day'])
    .execute();
  if (paused.length === 0) return 0;
  const maker = await w.tx.selectFrom('users').select('email').where('id', '=', personId).executeTakeFirst();
  for (const plan of paused) {
    const p = await w.tx.selectFrom('projects').select(['name', 'name_cn']).where('id', '=', plan.project_id).executeTakeFirstOrThrow();
    await notify(w, accountId, pausedText(plan, p, maker?.email ?? `#${personId}`), now);
  }
  await publish(w, { type: 'invalidate', tables: ['offsets'] }, accountId, now);
  return paused.length;
}

function pausedText(plan: { tons: number; day: number }, p: { name: string; name_cn: string }, maker: string) {
  return {
    title: 'Monthly offset paused',
    title_cn: '每月碳抵消已暂停',
    body: `The monthly offset of ${plan.tons} t of ${p.name} on day ${plan.day} was set up by ${maker}, who no longer buys for the organisation, so it buys nothing more. A buyer can confirm it with their own payment password (Change) and resume it, or cancel it.`,
    body_cn: `每月 ${plan.day} 日购买「${p.name_cn || p.name}」${plan.tons} 吨的碳抵消计划由 ${maker} 设置，该成员已不再代表机构购买，因此计划已暂停。采购人员可使用自己的支付密码确认（修改）后恢复，或将其取消。`,
    // The push opens the organisation's monthly offsets, where the plan is changed or cancelled.
    url: '/pages/profile/offsets',
  };
}
