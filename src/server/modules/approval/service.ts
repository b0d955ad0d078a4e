import { emitWebhookEvent } from '../webhook/outbox';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { writeTx, type EffectRecord, type WriteScope } from '../../db/tx';
import { pageOf } from '../../db/paging';
import { formatSgd } from '../../../shared/money';
import type { Paged } from '../../../shared/api';
import type { ApprovalRequest, ApprovalThresholds, ApprovalThresholdsRead } from '../../../shared/schemas/approval';
import { commitRetirement } from '../retire/service';
import { commitWithdrawal, holdForApproval } from '../wallet/service';
import { approvalAnswer, approvalAnswers, noticeOfRequest, thresholdsApply, thresholdsFor, type ApprovalRow } from '../user/approval-requests';
import type { Acting } from '../session';

// Approvals (maker-checker) of an organisation (docs/product.md#approvals, docs/decisions/0038-approvals.md).
// A member's retirement or withdrawal above the threshold opened a request (retire/service.ts
// requestRetirement, wallet/service.ts requestWithdrawalApproval) holding its tons or money. An approver who
// is not its maker decides it; the approval carries it out through the same use case, in the same write
// transaction as the decision, so a refusal of that use case (the balance, a weekend) leaves the request
// waiting with nothing half-done. A decline or the expiry releases what was held. Every step moves the
// request out of `waiting` with a conditional update: of two deciders, or a decider and the expiry, exactly
// one changes it.

/** What the row keeps, and what its notices say (a cancel is kept as the maker's decline). */
type Stored = 'approved' | 'declined' | 'expired';
type Outcome = Stored | 'cancelled';

/** Moves a waiting request to its outcome; undefined when it was no longer waiting (someone was first). */
async function settle(w: WriteScope, row: ApprovalRow, status: Stored, by: number | null, now: number): Promise<boolean> {
  const done = await w.tx
    .updateTable('approval_requests')
    .set({ status, decided_by: by, decided_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  await emitWebhookEvent(w, { owner: row.account_id, mode: 'live', type: 'approval.decided', data: { id: row.id, kind: row.kind, status, decided_by: by, decided_at: now } }, now);
  return true;
}

/** What the request held goes back: a withdrawal's money to available; a retirement's tons are free as soon
 *  as the request no longer waits. */
async function release(w: WriteScope, row: ApprovalRow, now: number): Promise<void> {
  if (row.kind === 'withdraw') await holdForApproval(w, row.account_id, row.id, row.amount + row.fee, false, now);
}

/** Carries the request out through its use case; gives what it made. */
async function carryOut(deps: Deps, w: WriteScope, row: ApprovalRow, now: number): Promise<Record<string, unknown>> {
  const input = JSON.parse(row.input) as Record<string, unknown>;
  if (row.kind === 'retire') {
    const made = await commitRetirement(deps, w, row.account_id, { project_id: row.project_id!, tons: row.tons, beneficiary: String(input.beneficiary ?? ''), reason: String(input.reason ?? ''), hide_beneficiary: input.hide_beneficiary === true, icc_year: typeof input.icc_year === 'number' ? input.icc_year : null }, now);
    return { certificate_id: made.id };
  }
  await release(w, row, now);
  const method = input.method === 'bank' || input.method === 'paynow' ? input.method : undefined;
  const maker = await w.tx.selectFrom('users').selectAll().where('id', '=', row.maker_id).executeTakeFirstOrThrow();
  const made = await commitWithdrawal(deps, w, row.account_id, { amount: row.amount, method }, maker, now);
  return { withdrawal_id: made.id };
}

const WHAT = (row: ApprovalRow) => (row.kind === 'retire' ? { en: `retirement of ${row.tons} t`, cn: `注销 ${row.tons} 吨` } : { en: `withdrawal of ${formatSgd(row.amount)}`, cn: `提现 ${formatSgd(row.amount)}` });

const OUTCOME_WORDS: Record<Outcome, { en: string; cn: string }> = {
  approved: { en: 'approved', cn: '已批准' },
  declined: { en: 'declined', cn: '已拒绝' },
  expired: { en: 'expired', cn: '已过期' },
  cancelled: { en: 'cancelled by its maker', cn: '已由申请人撤销' },
};

async function tellOutcome(w: WriteScope, row: ApprovalRow, status: Outcome, now: number): Promise<void> {
  const what = WHAT(row);
  const word = OUTCOME_WORDS[status];
  const held = status === 'approved' ? '' : row.kind === 'retire' ? ' The tons it held are free again.' : ' The money it held is back in the available balance.';
  const heldCn = status === 'approved' ? '' : row.kind === 'retire' ? '所占用的吨数已释放。' : '所冻结的资金已退回可用余额。';
  await noticeOfRequest(
    w,
    row.account_id,
    [row.maker_id],
    { title: `Request #${row.id} ${word.en}`, title_cn: `申请 #${row.id} ${word.cn}`, body: `The ${what.en} (request #${row.id}) was ${word.en}.${held}`, body_cn: `申请 #${row.id}（${what.cn}）${word.cn}。${heldCn}` },
    now,
  );
}

/** The request of the organisation `acting` acts for, if `acting` may decide it now; else the refusal. */
async function decidable(db: Deps['db'] | WriteScope['tx'], acting: Acting, id: number, now: number): Promise<ApprovalRow> {
  const row = await db.selectFrom('approval_requests').selectAll().where('id', '=', id).where('account_id', '=', acting.accountId).executeTakeFirst();
  if (!row) throw new AppError('approval_not_found');
  if (row.maker_id === acting.member.id) throw new AppError('approval_own');
  if (row.status !== 'waiting' || row.expires_at <= now) throw new AppError('approval_decided');
  return row;
}

/** The checks of a decision before the approver's payment password is paid for (made again in decide). */
export async function checkDecidable(deps: Deps, acting: Acting, id: number): Promise<void> {
  await decidable(deps.db, acting, id, deps.clock.now());
}

/** An approver decides a request of the organisation the session acts for. */
export async function decide(deps: Deps, acting: Acting, id: number, approve: boolean, record: EffectRecord): Promise<ApprovalRequest> {
  return writeTx(deps.db, async (tx, w) => {
    const now = deps.clock.now();
    const row = await decidable(tx, acting, id, now);
    const status: Outcome = approve ? 'approved' : 'declined';
    if (!(await settle(w, row, status, acting.member.id, now))) throw new AppError('approval_decided');
    if (approve) {
      const result = await carryOut(deps, w, row, now);
      await tx.updateTable('approval_requests').set({ result: JSON.stringify(result) }).where('id', '=', row.id).execute();
    } else {
      await release(w, row, now);
    }
    await tellOutcome(w, row, status, now);
    return (await approvalAnswer(tx, acting.accountId, row.id))!;
  }, record);
}

/** The maker cancels their own waiting request: released exactly as a decline, by the same conditional
 *  update, so a cancel racing approvals (or the expiry) leaves one outcome. */
export async function cancelRequest(deps: Deps, acting: Acting, id: number, record: EffectRecord): Promise<ApprovalRequest> {
  return writeTx(deps.db, async (tx, w) => {
    const now = deps.clock.now();
    const row = await tx.selectFrom('approval_requests').selectAll().where('id', '=', id).where('account_id', '=', acting.accountId).executeTakeFirst();
    if (!row) throw new AppError('approval_not_found');
    if (row.maker_id !== acting.member.id) throw new AppError('approval_not_yours');
    if (row.status !== 'waiting' || row.expires_at <= now) throw new AppError('approval_decided');
    if (!(await settle(w, row, 'declined', acting.member.id, now))) throw new AppError('approval_decided');
    await release(w, row, now);
    await tellOutcome(w, row, 'cancelled', now);
    return (await approvalAnswer(tx, acting.accountId, row.id))!;
  }, record);
}

/** Why a member's waiting requests go without her: removed, or given a role that does not trade. */
export type MakerGone = 'removed' | 'no_trade';

const GONE_WORDS: Record<MakerGone, { en: string; cn: string }> = {
  removed: { en: 'was removed from the organisation', cn: '已被移出本组织' },
  no_trade: { en: 'no longer has a role that trades', cn: '的角色已不能交易' },
};

/** Cancels the waiting requests `makerId` made for `accountId`, in the caller's transaction (her removal or
 *  new role): a request carries its maker's consent, given with her own payment password, and an approver
 *  must not carry out the consent of someone who no longer trades for the organisation. Each is released
 *  exactly as her own cancel releases it (a decline by its maker, by the same conditional update, so an
 *  approval in the same moment leaves one outcome), and the approvers and the maker are told. */
export async function cancelMakerRequests(w: WriteScope, accountId: number, makerId: number, why: MakerGone, now: number): Promise<number> {
  const rows = await w.tx.selectFrom('approval_requests').selectAll().where('account_id', '=', accountId).where('maker_id', '=', makerId).where('status', '=', 'waiting').orderBy('id').execute();
  if (rows.length === 0) return 0;
  const maker = await w.tx.selectFrom('users').select('email').where('id', '=', makerId).executeTakeFirst();
  const name = maker?.email ?? `#${makerId}`;
  const approvers = await w.tx.selectFrom('organisation_members').select('user_id').where('account_id', '=', accountId).where('role', 'in', ['owner', 'approver']).where('user_id', '<>', makerId).execute();
  let cancelled = 0;
  for (const row of rows) {
    if (!(await settle(w, row, 'declined', makerId, now))) continue;
    await release(w, row, now);
    const what = WHAT(row);
    const held = row.kind === 'retire' ? ' The tons it held are free again.' : ' The money it held is back in the available balance.';
    const heldCn = row.kind === 'retire' ? '所占用的吨数已释放。' : '所冻结的资金已退回可用余额。';
    await noticeOfRequest(
      w,
      accountId,
      [makerId, ...approvers.map((a) => a.user_id)],
      {
        title: `Request #${row.id} cancelled`,
        title_cn: `申请 #${row.id} 已撤销`,
        body: `The ${what.en} (request #${row.id}) was cancelled: its maker ${name} ${GONE_WORDS[why].en}.${held}`,
        body_cn: `申请 #${row.id}（${what.cn}）已撤销：申请人 ${name} ${GONE_WORDS[why].cn}。${heldCn}`,
      },
      now,
    );
    cancelled++;
  }
  return cancelled;
}

/** Expires one request past its time, once across instances (the conditional update); its maker is the
 *  one the activity log names. False: it was no longer waiting. */
export async function expireRequest(deps: Deps, id: number, now: number): Promise<boolean> {
  return writeTx(deps.db, async (tx, w) => {
    const row = await tx.selectFrom('approval_requests').selectAll().where('id', '=', id).where('status', '=', 'waiting').where('expires_at', '<=', now).executeTakeFirst();
    if (!row || !(await settle(w, row, 'expired', null, now))) return false;
    await release(w, row, now);
    await tx
      .insertInto('organisation_activity')
      .values({ account_id: row.account_id, member_id: row.maker_id, action: 'approval.expire', detail: JSON.stringify({ request: { id: row.id, kind: row.kind, tons: row.tons, amount: row.amount }, result: { status: 'expired' } }), created_at: now })
      .execute();
    await tellOutcome(w, row, 'expired', now);
    return true;
  });
}

/** The waiting requests past their time, earliest first, at most `limit`. */
export function dueExpiries(deps: Deps, now: number, limit: number) {
  return deps.db.selectFrom('approval_requests').select(['id', 'expires_at']).where('status', '=', 'waiting').where('expires_at', '<=', now).orderBy('expires_at').orderBy('id').limit(limit).execute();
}

/** The organisation's requests, newest first: waiting, decided (approved, declined, expired) or all. */
export async function approvalsOf(deps: Deps, accountId: number, q: { page: number; page_size: number; state: 'waiting' | 'decided' | '' }): Promise<Paged<ApprovalRequest>> {
  let base = deps.db.selectFrom('approval_requests').where('account_id', '=', accountId);
  if (q.state === 'waiting') base = base.where('status', '=', 'waiting');
  if (q.state === 'decided') base = base.where('status', '<>', 'waiting');
  const page = await pageOf(base, q, (b) => b.select('id').orderBy('id', 'desc'), (r) => r.id);
  const list = await approvalAnswers(deps.db, accountId, (qb) => qb.where('a.id', 'in', page.list.length ? page.list : [0]).orderBy('a.id', 'desc'));
  return { ...page, list };
}

/** The thresholds, and whether the asking member's own writes above them wait for an approver (the retire
 *  and withdraw screens say so before the payment password). */
export async function thresholdsOfAccount(deps: Deps, acting: Acting): Promise<ApprovalThresholdsRead> {
  const [limits, applies] = await Promise.all([thresholdsFor(deps.db, acting.accountId), thresholdsApply(deps.db, acting)]);
  return { ...limits, applies_to_you: applies };
}

/** The owner sets the thresholds (kept in the organisation's settings beside what else is there). */
export async function setThresholds(deps: Deps, acting: Acting, t: ApprovalThresholds, record: EffectRecord): Promise<ApprovalThresholds> {
  if (acting.role !== 'owner') throw new AppError('approval_owner_only');
  return writeTx(deps.db, async (tx) => {
    const org = await tx.selectFrom('organisations').select('settings').where('account_id', '=', acting.accountId).executeTakeFirstOrThrow();
    let settings: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(org.settings);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) settings = { ...(parsed as Record<string, unknown>) };
    } catch {
      settings = {};
    }
    settings.approval = { retire_tons: t.retire_tons, withdraw_cents: t.withdraw_cents };
    await tx.updateTable('organisations').set({ settings: JSON.stringify(settings) }).where('account_id', '=', acting.accountId).execute();
    return t;
  }, record);
}
