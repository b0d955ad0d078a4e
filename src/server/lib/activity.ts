import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { Compilable, QueryResult } from 'kysely';
import type { Tx } from '../db/tx';
import type { OrgRole } from '../db/schema';
import { AppError } from './http';
import { API_BASE } from '../../shared/api';

// The organisation's activity log (docs/product.md#organisations): every write a member makes for an
// organisation (and its owner's own) leaves a row with who, what, when and the amounts. It is written by the
// idempotent write with the request's key, in the same transaction as the effect, so a row exists exactly
// when the effect does, and a replayed key adds none.

/** What a request's activity row says before its answer is known. */
export interface Activity {
  accountId: number;
  memberId: number;
  action: string;
  fields: Record<string, unknown>;
  /** The roles that may make this write, read again in its transaction (membershipCheck); none: not read. */
  recheck?: readonly OrgRole[];
}

/** Fields never kept: secrets and the request's language. */
const DROPPED = /pass|pwd|secret|^lang$/i;
/** Digits of an account, card or PayNow number beyond the last four are masked, however the number is
 *  grouped: the activity keeps the request as typed, before its schema strips spaces and dashes. */
const LONG_NUMBER = /^\+?\d{8,}$/;
const GROUPING = /[\s-]/g;
/** Fields that identify a person or an account whatever their shape (an NRIC/FIN, a PayNow UEN, an account
 *  number with letters): kept as their last 4 characters at most, as account numbers are. */
const MASKED = /^(ic_number|paynow|account_no)$/;
/** At most this many fields of the request and of the answer, each at most this long. */
const MAX_FIELDS = 20;
const MAX_TEXT = 200;

function kept(key: string, value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value !== 'string') return undefined;
  const digits = value.replace(GROUPING, '');
  if (MASKED.test(key) && digits !== '') return digits.length > 4 ? `****${digits.slice(-4)}` : '****';
  if (LONG_NUMBER.test(digits)) return `****${digits.slice(-4)}`;
  // Cut on a character boundary: half a surrogate pair is not text (the log is read back and exported).
  const cut = value.slice(0, MAX_TEXT);
  return cut.isWellFormed() ? cut : cut.slice(0, -1);
}

function scalars(obj: unknown, drop: RegExp): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return out;
  for (const [k, v] of Object.entries(obj).slice(0, MAX_FIELDS)) {
    if (drop.test(k)) continue;
    // A nested record is named by its id (a request's answer `{approval: {id, …}}` keeps `approval_id`).
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { id?: unknown }).id === 'number') out[`${k}_id`] = (v as { id: number }).id;
    const value = kept(k, v);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

/** The activity of this request when it acts for an organisation, else null. */
export function activityOf(c: Context<AppEnv>, payload: Record<string, unknown>): Activity | null {
  const acting = c.get('acting');
  if (!acting) return null;
  // An integrator's request (/v1/orders) is named by its path under /v1 (v1.orders).
  const path = c.req.path.startsWith(API_BASE) ? c.req.path.slice(API_BASE.length).replace(/^\/api\//, '') : c.req.path.replace(/^\//, '');
  const action = path.replace(/\//g, '.');
  const fields = scalars(payload, DROPPED);
  if (acting.apiKey) fields.api_key = acting.apiKey;
  if (acting.alone) fields.approval = 'owner_alone';
  return { accountId: acting.accountId, memberId: acting.memberId, action, fields, recheck: acting.recheck };
}

/** Marks the request as the owner's, above the approval threshold, in an organisation where no one else may
 *  approve (docs/product.md#approvals): its activity row says `approval: owner_alone`. */
export function markOwnerAlone(c: Context<AppEnv>): void {
  const acting = c.get('acting');
  if (acting) c.set('acting', { ...acting, alone: true });
}

/** The members of the activities that are read again in the write's transaction, with a check that each
 *  still has a role allowed to make it (a request that passed its role check before the member was removed
 *  or given another role is refused, and its effect rolled back); null when none is. Sent with the activity
 *  rows (`w.ahead`), so it costs no round trip of its own on PostgreSQL. */
export function membershipCheck(tx: Tx, activities: readonly Activity[]): { query: Compilable<{ account_id: number; user_id: number; role: OrgRole }>; check: (result: QueryResult<{ account_id: number; user_id: number; role: OrgRole }>) => void } | null {
  const checked = activities.filter((a) => a.recheck);
  if (checked.length === 0) return null;
  const query = tx
    .selectFrom('organisation_members')
    .select(['account_id', 'user_id', 'role'])
    .where((eb) => eb.or(checked.map((a) => eb.and([eb('account_id', '=', a.accountId), eb('user_id', '=', a.memberId)]))));
  const check = ({ rows }: QueryResult<{ account_id: number; user_id: number; role: OrgRole }>) => {
    for (const a of checked) {
      const row = rows.find((r) => Number(r.account_id) === a.accountId && Number(r.user_id) === a.memberId);
      if (!row || !a.recheck!.includes(row.role)) throw new AppError('org_role_forbidden');
    }
  };
  return { query, check };
}

/** The insert of the activity rows of answered requests. */
export function insertActivity(tx: Tx, done: readonly { activity: Activity; result: unknown }[], now: number) {
  return tx.insertInto('organisation_activity').values(
    done.map(({ activity, result }) => ({
      account_id: activity.accountId,
      member_id: activity.memberId,
      action: activity.action,
      detail: JSON.stringify({ request: activity.fields, result: scalars(result, DROPPED) }),
      created_at: now,
    })),
  );
}
