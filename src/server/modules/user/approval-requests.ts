import { emitWebhookEvent } from '../webhook/outbox';
import { sql, type Selectable } from 'kysely';
import type { DB } from '../../db/connection';
import type { ApprovalRequestsTable } from '../../db/schema';
import type { Tx, WriteScope } from '../../db/tx';
import { publish } from '../../live/events';
import { notify, type NoticeText } from '../../live/notices';
import type { ApprovalRequest, ApprovalThresholds } from '../../../shared/schemas/approval';
import { ORG_ROLES } from '../../../shared/schemas/org';
import { roleCan, type Acting } from '../session';

// What the retirement, the withdrawal and the approvals share of an organisation's maker-checker requests
// (docs/product.md#approvals, docs/decisions/0038-approvals.md): the owner's thresholds, whether a
// member's request waits for an approver, the tons waiting requests hold, the request row and its notices.
// It sits in user/ (the lower module), since retire and wallet open requests and approval decides them.

export type ApprovalRow = Selectable<ApprovalRequestsTable>;

/** Without the owner's choice: every withdrawal waits, and retirements of more than 100 t. */
export const DEFAULT_THRESHOLDS: ApprovalThresholds = { retire_tons: 100, withdraw_cents: 0 };

const whole = (n: unknown, fallback: number) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : fallback);

/** The organisation's thresholds, from its settings (JSON; a missing or odd value is the default). */
export function thresholdsOf(settings: string): ApprovalThresholds {
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings);
  } catch {
    parsed = null;
  }
  const a = parsed && typeof parsed === 'object' && 'approval' in parsed ? (parsed as { approval: Record<string, unknown> }).approval : null;
  if (!a || typeof a !== 'object') return { ...DEFAULT_THRESHOLDS };
  return { retire_tons: whole(a.retire_tons, DEFAULT_THRESHOLDS.retire_tons), withdraw_cents: whole(a.withdraw_cents, DEFAULT_THRESHOLDS.withdraw_cents) };
}

export async function thresholdsFor(db: DB | Tx, accountId: number): Promise<ApprovalThresholds> {
  const org = await db.selectFrom('organisations').select('settings').where('account_id', '=', accountId).executeTakeFirst();
  return thresholdsOf(org?.settings ?? '{}');
}

/** How a retirement (`tons`) or withdrawal (`cents`) of a member goes: at once (`direct`, at or under the
 *  threshold, or not for an organisation), as a request waiting for an approver (`request`), or, for the
 *  owner of an organisation where no one else may approve, at once and marked in the activity log
 *  (`alone`). The owner is held to the thresholds too: maker-checker means no one person moves the
 *  organisation's money or credits alone (docs/decisions/0038-approvals.md). */
export type ApprovalPath = 'direct' | 'request' | 'alone';

const APPROVING_ROLES = ORG_ROLES.filter((r) => roleCan(r, 'approve'));

/** True when the acting member's retirements and withdrawals above the thresholds wait for an approver:
 *  everyone's but an owner's in an organisation where no one else may approve. */
export async function thresholdsApply(db: DB | Tx, acting: Pick<Acting, 'accountId' | 'role' | 'member'>): Promise<boolean> {
  if (acting.role !== 'owner') return true;
  const other = await db.selectFrom('organisation_members').select('user_id').where('account_id', '=', acting.accountId).where('role', 'in', APPROVING_ROLES).where('user_id', '<>', acting.member.id).limit(1).executeTakeFirst();
  return other !== undefined;
}

export async function approvalPath(db: DB | Tx, acting: Acting | null, kind: 'retire' | 'withdraw', size: number): Promise<ApprovalPath> {
  if (!acting) return 'direct';
  const t = await thresholdsFor(db, acting.accountId);
  if (size <= (kind === 'retire' ? t.retire_tons : t.withdraw_cents)) return 'direct';
  return (await thresholdsApply(db, acting)) ? 'request' : 'alone';
}

/** The tons of a project an account's waiting retirement requests hold: neither retirable nor sellable. */
export async function tonsAwaitingApproval(db: DB | Tx, accountId: number, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('approval_requests')
    .select(sql<number>`coalesce(sum(tons), 0)`.as('n'))
    .where('status', '=', sql.lit('waiting'))
    .where('account_id', '=', accountId)
    .where('project_id', '=', projectId)
    .where('kind', '=', sql.lit('retire'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Holdings less the tons waiting requests hold, taken from those bought outright first (the order a
 *  retirement takes them in, so the approved retirement finds what its request held). */
export function lessAwaiting(held: { purchase: number; presale: number }, awaiting: number): { purchase: number; presale: number } {
  const fromPurchase = Math.min(held.purchase, awaiting);
  return { purchase: held.purchase - fromPurchase, presale: Math.max(0, held.presale - (awaiting - fromPurchase)) };
}

/** The answer of one request, read with the names it shows. */
export async function approvalAnswer(db: DB | Tx, accountId: number, id: number): Promise<ApprovalRequest | undefined> {
  return (await approvalAnswers(db, accountId, (q) => q.where('a.id', '=', id)))[0];
}

type ApprovalQuery = ReturnType<typeof approvalQuery>;

function approvalQuery(db: DB | Tx, accountId: number) {
  return db
    .selectFrom('approval_requests as a')
    .innerJoin('users as m', 'm.id', 'a.maker_id')
    .leftJoin('users as d', 'd.id', 'a.decided_by')
    .leftJoin('projects as p', 'p.id', 'a.project_id')
    .selectAll('a')
    .select(['m.email as maker_email', 'd.email as decided_by_email', 'p.name as project_name', 'p.name_cn as project_name_cn'])
    .where('a.account_id', '=', accountId);
}

export async function approvalAnswers(db: DB | Tx, accountId: number, narrow: (q: ApprovalQuery) => ApprovalQuery): Promise<ApprovalRequest[]> {
  const rows = await narrow(approvalQuery(db, accountId)).execute();
  return rows.map((r) => {
    const input = JSON.parse(r.input) as { beneficiary?: string };
    const result = JSON.parse(r.result) as { certificate_id?: string; withdrawal_id?: number };
    return {
      id: r.id,
      kind: r.kind,
      // The maker's own decline is a cancel (a maker cannot decline their own request otherwise).
      status: r.status === 'declined' && r.decided_by === r.maker_id ? ('cancelled' as const) : r.status,
      maker_id: r.maker_id,
      maker_email: r.maker_email,
      project_id: r.project_id,
      project_name: r.project_name ?? '',
      project_name_cn: r.project_name_cn || (r.project_name ?? ''),
      tons: r.tons,
      amount: r.amount,
      fee: r.fee,
      beneficiary: input.beneficiary ?? '',
      decided_by_email: r.decided_by_email ?? '',
      certificate_id: result.certificate_id ?? '',
      withdrawal_id: result.withdrawal_id ?? null,
      created_at: r.created_at,
      expires_at: r.expires_at,
      decided_at: r.decided_at,
    };
  });
}

/** Tells the organisation (every member's organisation session, its inbox) and the people named (their
 *  own inboxes and devices) about a request, and makes the approvals lists stale. */
export async function noticeOfRequest(w: WriteScope, accountId: number, people: readonly number[], text: NoticeText, now: number): Promise<void> {
  const shown = { url: '/pages/org/approvals', ...text };
  await notify(w, accountId, shown, now);
  for (const id of new Set(people)) if (id !== accountId) await notify(w, id, shown, now);
  await publish(w, { type: 'invalidate', tables: ['approvals'] }, accountId, now);
}

/** Opens a request in the caller's write transaction: the row, an activity row is the idempotent write's,
 *  and the notices to the organisation and its approvers. */
export async function openApprovalRequest(
  w: WriteScope,
  row: { account_id: number; maker_id: number; kind: 'retire' | 'withdraw'; project_id: number | null; tons: number; amount: number; fee: number; input: Record<string, unknown> },
  ttlDays: number,
  text: NoticeText,
  now: number,
): Promise<ApprovalRequest> {
  const { id } = await w.tx
    .insertInto('approval_requests')
    .values({ ...row, input: JSON.stringify(row.input), status: 'waiting', decided_by: null, result: '{}', created_at: now, expires_at: now + ttlDays * 86_400_000, decided_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const approvers = await w.tx.selectFrom('organisation_members').select('user_id').where('account_id', '=', row.account_id).where('role', 'in', ['owner', 'approver']).where('user_id', '<>', row.maker_id).execute();
  await noticeOfRequest(w, row.account_id, approvers.map((a) => a.user_id), text, now);
  await emitWebhookEvent(w, { owner: row.account_id, mode: 'live', type: 'approval.requested', data: { id, kind: row.kind, maker_id: row.maker_id, project_id: row.project_id, tons: row.tons, amount: row.amount, fee: row.fee, status: 'waiting', created_at: now } }, now);
  return (await approvalAnswer(w.tx, row.account_id, id))!;
}
