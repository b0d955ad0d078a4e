import type { Deps } from '../../env';
import { newToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/http';
import { writeTx, type EffectRecord, type Tx, type WriteScope } from '../../db/tx';
import { publish } from '../../live/events';
import { createSession, forgetPushDevices, roleCan, type Acting, type Session, type User } from '../session';
import type { OrgRole } from '../../db/schema';
import { pauseMakerPlans } from '../offset/maker';
import { cancelMakerRequests } from '../approval/service';
import type { LoginInfo } from '../../../shared/schemas/auth';
import type { OrgInvitation, OrgSummary } from '../../../shared/schemas/org';

// Organisations, members and roles (docs/product.md#organisations, docs/decisions/0037-organisations.md).
// The corporate account is the organisation's ledger account; members sign in with their own logins and
// act for it in a session of its own (switchTo), which every request checks against the membership.

type MemberRole = Exclude<OrgRole, 'owner'>;

const HOUR_MS = 3_600_000;

/** A corporate registration founds its organisation: the company's name and UEN, the registrant as owner. */
export async function foundOrganisation(tx: Tx, account: Pick<User, 'id' | 'company' | 'uen'>, now: number): Promise<void> {
  await tx.insertInto('organisations').values({ account_id: account.id, name: account.company, uen: account.uen, settings: '{}', created_at: now }).execute();
  await tx.insertInto('organisation_members').values({ account_id: account.id, user_id: account.id, role: 'owner', created_at: now }).execute();
}

/** The acting member still manages the organisation, read in the write's own transaction: a request that
 *  passed its role check just before the member was removed or given another role commits nothing. */
async function assertStillManages(tx: Tx, acting: Acting): Promise<void> {
  const m = await tx.selectFrom('organisation_members').select('role').where('account_id', '=', acting.accountId).where('user_id', '=', acting.member.id).executeTakeFirst();
  if (!m) throw new AppError('org_not_member');
  if (!roleCan(m.role, 'manage')) throw new AppError('org_role_forbidden');
}

/** The organisation of an account with the member's role, or null. */
async function membershipOf(db: Tx, accountId: number, userId: number): Promise<OrgSummary | null> {
  const row = await db
    .selectFrom('organisation_members as m')
    .innerJoin('organisations as o', 'o.account_id', 'm.account_id')
    .select(['o.account_id', 'o.name', 'o.uen', 'm.role'])
    .where('m.account_id', '=', accountId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Moves the person into an organisation's context (or back to their own account, `accountId` null): a new
 *  session acting for it, after the membership is checked; the session it replaces ends. */
export async function switchTo(deps: Deps, session: Session, person: User, accountId: number | null): Promise<LoginInfo> {
  let account = person;
  if (accountId !== null && accountId !== person.id) {
    const member = await membershipOf(deps.db, accountId, person.id);
    if (!member) throw new AppError('org_not_member');
    account = await deps.db.selectFrom('users').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
  }
  const actingFor = account.id === person.id ? null : account.id;
  const created = await createSession(deps, person.id, actingFor);
  await deps.db.updateTable('sessions').set({ revoked_at: deps.clock.now() }).where('id', '=', session.id).where('revoked_at', 'is', null).execute();
  return {
    token: created.token,
    mem_id: account.id,
    realname: [person.first_name, person.last_name].filter(Boolean).join(' '),
    account: person.email,
    mobile: person.mobile,
    avatar: account.avatar,
    type: account.type,
    expires_at: created.expires_at,
  };
}

/** Invites a colleague by email: a link with a random token (kept only as its hash) that expires after
 *  ORG_INVITE_TTL_HOURS and joins once. A new invitation to the same address replaces the pending one. */
export async function invite(deps: Deps, acting: Acting, input: { email: string; role: MemberRole }, record: EffectRecord) {
  // Each invitation is a mail to an address the organisation chooses: bounded per organisation.
  await deps.limits.consume([['org_invite_account', String(acting.accountId)]]);
  const now = deps.clock.now();
  const token = newToken();
  const expires_at = now + deps.config.ORG_INVITE_TTL_HOURS * HOUR_MS;
  return writeTx(deps.db, async (tx, w) => {
    await assertStillManages(tx, acting);
    const already = await tx
      .selectFrom('organisation_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.user_id')
      .where('m.account_id', '=', acting.accountId)
      .where('u.email', '=', input.email)
      .executeTakeFirst();
    if (already) throw new AppError('org_member_exists');
    await tx.updateTable('organisation_invitations').set({ revoked_at: now }).where('account_id', '=', acting.accountId).where('email', '=', input.email).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute();
    const row = await tx
      .insertInto('organisation_invitations')
      .values({ account_id: acting.accountId, email: input.email, role: input.role, token_hash: sha256(token), invited_by: acting.member.id, created_at: now, expires_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await queueInvitation(deps, tx, acting, input.email, token, expires_at, now);
    await publish(w, { type: 'invalidate', tables: ['members'] }, acting.accountId, now);
    return { id: row.id, email: input.email, role: input.role, expires_at };
  }, record);
}

/** The invitation's mail, queued in the outbox in the invitation's transaction and sent by the mail job
 *  (scheduler/receipt-mail.ts): the mail exists exactly when its token does, a crash after the commit loses
 *  neither, and the mails of invitations to one address go out in the order they were made, so the last one
 *  carries the link that works. */
async function queueInvitation(deps: Deps, tx: Tx, acting: Acting, email: string, token: string, expiresAt: number, now: number): Promise<void> {
  const org = await tx.selectFrom('organisations').select('name').where('account_id', '=', acting.accountId).executeTakeFirstOrThrow();
  const link = `${deps.config.PUBLIC_URL ?? ''}/pages/org/join?token=${token}`;
  const until = new Date(expiresAt + 8 * HOUR_MS).toISOString().slice(0, 16).replace('T', ' ');
  const body = [
    `${acting.member.email} invites you to act for ${org.name} on Canopy.`,
    `${acting.member.email} 邀请您在 Canopy 上代表 ${org.name} 操作。`,
    '',
    `Open this link, then register or sign in with ${email} to join (valid until ${until} SGT, once):`,
    `请打开以下链接，并使用 ${email} 注册或登录后加入（有效期至新加坡时间 ${until}，仅可使用一次）：`,
    link,
  ].join('\n');
  await tx.insertInto('outbox').values({ to_email: email, subject: `Canopy: join ${org.name} / 加入 ${org.name}`, body, created_at: now, sent_at: null, error: null }).execute();
}

/** Joins the organisation of an invitation: the signed-in person's email must be the invited one, the
 *  link unused and unexpired; the first to use it wins, every other use is refused. */
/** What an unused, unexpired invitation offers, read by its token before joining; anything else is the
 *  same "invalid" as a wrong token. */
export async function invitationOf(deps: Deps, token: string): Promise<OrgInvitation> {
  const inv = await deps.db
    .selectFrom('organisation_invitations as i')
    .innerJoin('organisations as o', 'o.account_id', 'i.account_id')
    .select(['o.name', 'o.uen', 'i.role', 'i.email', 'i.expires_at', 'i.accepted_at', 'i.revoked_at'])
    .where('i.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!inv || inv.accepted_at !== null || inv.revoked_at !== null || inv.expires_at <= deps.clock.now()) throw new AppError('org_invite_invalid');
  return { name: inv.name, uen: inv.uen, role: inv.role as OrgInvitation['role'], email: inv.email, expires_at: Number(inv.expires_at) };
}

export async function join(deps: Deps, person: User, token: string, record: EffectRecord): Promise<OrgSummary> {
  if (person.type !== 'personal') throw new AppError('org_personal_only');
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    const inv = await tx.selectFrom('organisation_invitations').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!inv || inv.accepted_at !== null || inv.revoked_at !== null || inv.expires_at <= now) throw new AppError('org_invite_invalid');
    if (inv.email !== person.email) throw new AppError('org_invite_email', { email: inv.email });
    const taken = await tx
      .updateTable('organisation_invitations')
      .set({ accepted_at: now, accepted_by: person.id })
      .where('id', '=', inv.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new AppError('org_invite_invalid');
    const added = await tx
      .insertInto('organisation_members')
      .values({ account_id: inv.account_id, user_id: person.id, role: inv.role, created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!added) throw new AppError('org_member_exists');
    await tx.insertInto('organisation_activity').values({ account_id: inv.account_id, member_id: person.id, action: 'org.join', detail: JSON.stringify({ request: { role: inv.role }, result: {} }), created_at: now }).execute();
    await publish(w, { type: 'invalidate', tables: ['members'] }, inv.account_id, now);
    return (await membershipOf(tx, inv.account_id, person.id))!;
  }, record);
}

/** The member `userId` of the acting organisation, refused when absent or the owner (or when the acting
 *  member no longer manages it). */
async function changeableMember(tx: Tx, acting: Acting, userId: number): Promise<void> {
  await assertStillManages(tx, acting);
  const m = await tx.selectFrom('organisation_members').select('role').where('account_id', '=', acting.accountId).where('user_id', '=', userId).executeTakeFirst();
  if (!m) throw new AppError('org_member_not_found');
  if (m.role === 'owner') throw new AppError('org_owner_fixed');
}

/** Ends the sessions a member has open for the organisation: the next request is refused and the sockets
 *  close (the hub reads the session_end event; the sockets of those sessions are the account's). */
async function endMemberSessions(w: WriteScope, accountId: number, userId: number, now: number): Promise<void> {
  const ended = await w.tx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('acting_for', '=', accountId).where('revoked_at', 'is', null).returning(['id']).execute();
  if (ended.length > 0) await publish(w, { type: 'session_end', sessions: ended.map((r) => r.id) }, accountId, now);
}

/** Revokes the pending invitations a member sent: an invitation carries its sender's authority, so it goes
 *  when they are removed or no longer manage members (otherwise a departing admin's link would let its
 *  holder in afterwards). */
async function revokeInvitationsOf(tx: Tx, accountId: number, userId: number, now: number): Promise<void> {
  await tx.updateTable('organisation_invitations').set({ revoked_at: now }).where('account_id', '=', accountId).where('invited_by', '=', userId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute();
}

/** Gives a member another role: every request reads the role again, so it applies from the next one; a role
 *  without trade pauses the monthly offsets she set up (offset/maker.ts) and cancels her waiting approval
 *  requests (approval/service.ts). */
export async function setRole(deps: Deps, acting: Acting, input: { user_id: number; role: MemberRole }, record: EffectRecord) {
  // A role is given by someone else: an admin who could give themself buyer would trade alone, where the
  // organisation chose to have an admin who does not.
  if (input.user_id === acting.member.id) throw new AppError('org_own_role');
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    await changeableMember(tx, acting, input.user_id);
    await tx.updateTable('organisation_members').set({ role: input.role }).where('account_id', '=', acting.accountId).where('user_id', '=', input.user_id).execute();
    if (!roleCan(input.role, 'manage')) await revokeInvitationsOf(tx, acting.accountId, input.user_id, now);
    if (!roleCan(input.role, 'trade')) {
      await pauseMakerPlans(w, acting.accountId, input.user_id, now);
      await cancelMakerRequests(w, acting.accountId, input.user_id, 'no_trade', now);
    }
    await publish(w, { type: 'invalidate', tables: ['members'] }, acting.accountId, now);
    return { user_id: input.user_id, role: input.role };
  }, record);
}

/** Removes a member: the membership goes and with it, at once, every session they act for it in, every
 *  device they turned the organisation's notices on for (with its queued pushes), the monthly offsets
 *  they set up pause (offset/maker.ts) and their waiting approval requests are cancelled (approval/service.ts). */
export async function removeMember(deps: Deps, acting: Acting, userId: number, record: EffectRecord) {
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    await changeableMember(tx, acting, userId);
    await tx.deleteFrom('organisation_members').where('account_id', '=', acting.accountId).where('user_id', '=', userId).execute();
    await revokeInvitationsOf(tx, acting.accountId, userId, now);
    await endMemberSessions(w, acting.accountId, userId, now);
    await forgetPushDevices(w, userId, acting.accountId);
    await pauseMakerPlans(w, acting.accountId, userId, now);
    await cancelMakerRequests(w, acting.accountId, userId, 'removed', now);
    await publish(w, { type: 'invalidate', tables: ['members'] }, acting.accountId, now);
    return { user_id: userId, role: null };
  }, record);
}
