import type { Deps } from '../../env';
import type { Acting, Session, User } from '../session';
import type { OrgActivityList, OrgMembers, OrgMine } from '../../../shared/schemas/org';
import type { Lang } from '../../../shared/errors';
import { activityTable } from './activity-export';

// The organisation's reads: the person's organisations, the members (with pending invitations for those
// who manage them), and the activity log as a page or as CSV.

/** The organisations the person belongs to, and the one the session acts for. */
export async function mine(deps: Deps, session: Session, person: User): Promise<OrgMine> {
  const list = await deps.db
    .selectFrom('organisation_members as m')
    .innerJoin('organisations as o', 'o.account_id', 'm.account_id')
    .select(['o.account_id', 'o.name', 'o.uen', 'm.role'])
    .where('m.user_id', '=', person.id)
    .orderBy('o.name')
    .execute();
  const actingId = session.acting?.accountId ?? null;
  return { list, acting: list.find((o) => o.account_id === actingId) ?? null };
}

/** The members, each named: a member by her own profile, the owner by the organisation's name. */
export async function members(deps: Deps, acting: Acting, withInvitations: boolean): Promise<OrgMembers> {
  const rows = await deps.db
    .selectFrom('organisation_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('organisations as o', 'o.account_id', 'm.account_id')
    .select(['m.user_id', 'u.email', 'u.first_name', 'u.last_name', 'o.name as organisation', 'm.role', 'm.created_at'])
    .where('m.account_id', '=', acting.accountId)
    .orderBy('m.created_at')
    .orderBy('m.user_id')
    .execute();
  const invitations = withInvitations
    ? await deps.db
        .selectFrom('organisation_invitations')
        .select(['id', 'email', 'role', 'created_at', 'expires_at'])
        .where('account_id', '=', acting.accountId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', deps.clock.now())
        .orderBy('id', 'desc')
        .execute()
    : [];
  return {
    members: rows.map((r) => ({
      user_id: r.user_id,
      email: r.email,
      // The owner is the organisation's own login: its profile names are the organisation's, which an admin
      // edits, so the owner is named by the organisation's registered name, which no member changes.
      name: r.role === 'owner' ? r.organisation : [r.first_name, r.last_name].filter(Boolean).join(' '),
      role: r.role,
      joined_at: r.created_at,
    })),
    invitations,
  };
}

function activityQuery(deps: Deps, accountId: number) {
  return deps.db
    .selectFrom('organisation_activity as a')
    .innerJoin('users as u', 'u.id', 'a.member_id')
    .where('a.account_id', '=', accountId);
}

/** A page of the activity log, newest first. */
export async function activity(deps: Deps, accountId: number, q: { page: number; page_size: number }): Promise<OrgActivityList> {
  const [list, count] = await Promise.all([
    activityQuery(deps, accountId)
      .select(['a.id', 'a.member_id', 'u.email as member_email', 'a.action', 'a.detail', 'a.created_at'])
      .orderBy('a.id', 'desc')
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .execute(),
    activityQuery(deps, accountId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(count.n), page: q.page, page_size: q.page_size };
}

/** The export's most rows: a year of a busy team, and a bounded answer. */
const CSV_MAX_ROWS = 50_000;

/** One CSV field: quoted, and a leading =, +, - or @ neutralised so a spreadsheet never runs it. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The whole activity log as CSV for finance (UTF-8 with a byte-order mark, so spreadsheets read Chinese),
 *  oldest first, in the reader's language (modules/org/activity-export.ts). */
export async function activityCsv(deps: Deps, accountId: number, lang: Lang): Promise<string> {
  const rows = await activityQuery(deps, accountId)
    .select(['a.id', 'u.email', 'a.action', 'a.detail', 'a.created_at'])
    .orderBy('a.id')
    .limit(CSV_MAX_ROWS)
    .execute();
  const table = await activityTable(deps, accountId, rows, lang);
  return `\uFEFF${table.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
}
