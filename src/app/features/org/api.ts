import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { db } from '../../lib/db';
import { useLiveRefresh } from '../../lib/live-refresh';
import { wireLang } from '../../lib/i18n';
import { getSession, saveLogin } from '../../lib/storage';
import { useMemberId } from '../../lib/user-info';
import { API_BASE, PATHS } from '../../../shared/api';
import type { LoginInfo } from '../../../shared/schemas/auth';
import type { OrgActivityList, OrgInvitation, OrgMembers, OrgMine, OrgSummary } from '../../../shared/schemas/org';
import type { ApprovalPage, ApprovalRequest, ApprovalThresholds } from '../../../shared/schemas/approval';

// The organisation's reads and writes (docs/product.md#organisations). Reads land in Dexie meta (per
// member, wiped when the signed-in account changes), so the screens show the last copy offline; the socket's
// `members` invalidation refreshes the member list. Switching the context stores the new session like a
// sign-in: the account changes, and with it every cached table is wiped (lib/session-cache.ts).

const MINE_KEY = 'org_mine';
const MEMBERS_KEY = 'org_members';
const ACTIVITY_KEY = 'org_activity';
const APPROVALS_KEY = 'org_approvals';
const THRESHOLDS_KEY = 'org_thresholds';

function useCached<T>(key: string, load: () => Promise<ApiResult<T>>, tables: readonly string[], enabled = true): T | null | undefined {
  const member = useMemberId() > 0;
  const value = useLiveQuery(async () => ((await db.meta.get(key))?.value as T | undefined) ?? null, [key]);
  const refresh = useCallback(async () => {
    const res = await load();
    if (res.code === 0 && res.data) await db.meta.put({ key, value: res.data });
  }, [key, load]);
  useLiveRefresh(refresh, tables, member && enabled);
  return value;
}

const loadMine = () => get<OrgMine>(PATHS.orgMine, {}, { quiet: true });
const loadMembers = () => get<OrgMembers>(PATHS.orgMembers, {}, { quiet: true });
const loadActivity = () => get<OrgActivityList>(PATHS.orgActivity, { page: 1, page_size: 50 }, { quiet: true });

/** Reads the members again into the cache: after this screen's own change, without waiting for the socket. */
export async function refreshOrgMembers(): Promise<void> {
  const res = await loadMembers();
  if (res.code === 0 && res.data) await db.meta.put({ key: MEMBERS_KEY, value: res.data });
}

/** The person's organisations and the one the session acts for. */
export const useOrgMine = () => useCached<OrgMine>(MINE_KEY, loadMine, ['user', 'members']);
/** The acting organisation's members (and pending invitations for those who manage them). */
export const useOrgMembers = () => useCached<OrgMembers>(MEMBERS_KEY, loadMembers, ['members']);
/** The newest activity of the acting organisation (owner and admins). */
export const useOrgActivity = (enabled: boolean) => useCached<OrgActivityList>(ACTIVITY_KEY, loadActivity, ['members', 'orders', 'fundlogs', 'retirements'], enabled);

const loadApprovals = () => get<ApprovalPage>(PATHS.approvalList, { page: 1, page_size: 50 }, { quiet: true });
const loadThresholds = () => get<ApprovalThresholds>(PATHS.approvalThresholds, {}, { quiet: true });

/** The organisation's approval requests, newest first (docs/product.md#approvals): the last copy offline. */
export const useApprovals = () => useCached<ApprovalPage>(APPROVALS_KEY, loadApprovals, ['approvals', 'retirements', 'fundlogs']);
/** The organisation's thresholds. */
export const useThresholds = () => useCached<ApprovalThresholds>(THRESHOLDS_KEY, loadThresholds, ['approvals', 'members']);

/** Reads the requests again into the cache: after this screen's own decision, without waiting for the socket. */
export async function refreshApprovals(): Promise<void> {
  const [list, limits] = await Promise.all([loadApprovals(), loadThresholds()]);
  if (list.code === 0 && list.data) await db.meta.put({ key: APPROVALS_KEY, value: list.data });
  if (limits.code === 0 && limits.data) await db.meta.put({ key: THRESHOLDS_KEY, value: limits.data });
}

/** Approving sends the approver's own payment password; declining sends none. */
export function decideApproval(input: { id: number; approve: boolean; password?: string }, idempotencyKey: string) {
  const body = input.approve ? { id: input.id, password: input.password ?? '' } : { id: input.id };
  return post<ApprovalRequest>(input.approve ? PATHS.approvalApprove : PATHS.approvalDecline, body, { idempotencyKey });
}

/** The maker cancels their own waiting request. */
export function cancelApproval(input: { id: number }, idempotencyKey: string) {
  return post<ApprovalRequest>(PATHS.approvalCancel, { id: input.id }, { idempotencyKey });
}

export function setThresholds(input: ApprovalThresholds, idempotencyKey: string) {
  return post<ApprovalThresholds>(PATHS.approvalThresholds, { ...input }, { idempotencyKey });
}

export function sendInvite(input: { email: string; role: string }, idempotencyKey: string) {
  return post<{ id: number; email: string; role: string; expires_at: number }>(PATHS.orgInvite, { ...input }, { idempotencyKey });
}

/** What an invitation's link offers (organisation, role), read before joining. */
export function readInvitation(token: string) {
  return get<OrgInvitation>(PATHS.orgInvitation, { token }, { quiet: true });
}

export function joinOrg(input: { token: string }, idempotencyKey: string) {
  return post<OrgSummary>(PATHS.orgJoin, { ...input }, { idempotencyKey, quiet: true });
}

export function changeRole(input: { user_id: number; role: string }, idempotencyKey: string) {
  return post<{ user_id: number; role: string | null }>(PATHS.orgRole, { ...input }, { idempotencyKey });
}

export function removeMember(input: { user_id: number }, idempotencyKey: string) {
  return post<{ user_id: number; role: null }>(PATHS.orgRemove, { ...input }, { idempotencyKey });
}

/** Acts for the organisation `accountId` (null: as oneself): the new session replaces this one. */
export async function switchContext(accountId: number | null): Promise<ApiResult<LoginInfo>> {
  const res = await post<LoginInfo>(PATHS.orgSwitch, { account_id: accountId }, { quiet: true });
  if (res.code === 0 && res.data) saveLogin(res.data);
  return res;
}

/** The activity log as a CSV file in the app's language, through the signed-in request (the download needs the token). */
export async function downloadActivityCsv(): Promise<Blob | null> {
  const res = await fetch(`${API_BASE}${PATHS.orgActivityCsv}?lang=${wireLang()}`, { headers: { Authorization: getSession().token } }).catch(() => null);
  if (!res) return null;
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/csv')) return null;
  return res.blob();
}
