import type { Context } from 'hono';
import type { AppEnv, Deps } from '../env';
import { newToken, sha256 } from '../lib/crypto';
import { AppError } from '../lib/http';
import type { OrgRole, UsersTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { writeTx, type WriteScope } from '../db/tx';
import { prepared } from '../db/prepared';
import { publish } from '../live/events';

export type User = Selectable<UsersTable>;

/** Who acts for an organisation in a request (docs/product.md#organisations): its account, the person
 *  signed in and their role. A corporate login acting as itself is its organisation's owner. */
export interface Acting {
  accountId: number;
  member: User;
  role: OrgRole;
}

export interface Session {
  id: number;
  /** The account the session acts as: the login's own, or the organisation's in an organisation context.
   *  null: visitor. */
  user: User | null;
  /** When it ends unless used again (sliding). */
  expires_at: number;
  /** Set when `user` is an organisation's account. */
  acting: Acting | null;
}

/** What a role may write (docs/product.md#organisations): `trade` top-up, buy, book, pay, sell,
 *  retire, withdraw; `manage` members, settings, the payout account and profile; `approve` decide others'
 *  requests; `inbox` mark notices read. Reads are open to every member. */
export type Capability = 'trade' | 'manage' | 'approve' | 'inbox';

const ROLE_CAN: Readonly<Record<OrgRole, readonly Capability[]>> = {
  owner: ['trade', 'manage', 'approve', 'inbox'],
  admin: ['manage', 'inbox'],
  buyer: ['trade', 'inbox'],
  approver: ['approve', 'inbox'],
  viewer: ['inbox'],
};

export const roleCan = (role: OrgRole, need: Capability): boolean => ROLE_CAN[role].includes(need);

const TRADERS: readonly OrgRole[] = (Object.keys(ROLE_CAN) as OrgRole[]).filter((r) => roleCan(r, 'trade'));

/** The person whose payment password a write of `account` checks: the member acting for an organisation,
 *  else the account itself (set by findSession for the request's account row). */
const payers = new WeakMap<User, User>();
export const payerOf = (account: User): User => payers.get(account) ?? account;

const DAY_MS = 86_400_000;

/** Reads the token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenOf(c: Context<AppEnv>): string | null {
  const header = c.req.header('authorization')?.trim();
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  // An integrator's API key never opens a session endpoint (docs/product.md#integrators).
  if (token.startsWith('ck_')) return null;
  return token.length >= 20 && token.length <= 200 ? token : null;
}

export async function createSession(deps: Deps, userId: number | null, actingFor: number | null = null): Promise<{ token: string; expires_at: number }> {
  const now = deps.clock.now();
  const token = newToken();
  const expires_at = now + deps.config.SESSION_TTL_DAYS * DAY_MS;
  await deps.db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: userId, created_at: now, expires_at, last_seen_at: now, revoked_at: null, acting_for: actingFor })
    .execute();
  return { token, expires_at };
}

const sessionWithUser = prepared((db, p: { tokenHash: string }) =>
  db
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.user_id as session_user_id',
      'sessions.expires_at as session_expires_at',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.revoked_at as session_revoked_at',
      'sessions.acting_for as session_acting_for',
    ])
    .where('sessions.token_hash', '=', p.tokenHash),
);

/** The organisation's account a member acts for, with the member's role: read on every request of an
 *  organisation session, so a removed member (or a disabled organisation) is refused at once. */
const actingAccount = prepared((db, p: { accountId: number; userId: number }) =>
  db
    .selectFrom('organisation_members')
    .innerJoin('users', 'users.id', 'organisation_members.account_id')
    .selectAll('users')
    .select('organisation_members.role as member_role')
    .where('organisation_members.account_id', '=', p.accountId)
    .where('organisation_members.user_id', '=', p.userId),
);

/** The account a session acts as and who acts: the login itself (a corporate login is its organisation's
 *  owner), or an organisation's account through a membership that exists now. null: no longer allowed. */
async function actingOf(deps: Deps, login: User, actingFor: number | null): Promise<{ user: User; acting: Acting | null } | null> {
  if (actingFor === null) {
    return { user: login, acting: login.type === 'corporate' ? { accountId: login.id, member: login, role: 'owner' } : null };
  }
  const found = (await actingAccount.execute(deps.db, { accountId: actingFor, userId: login.id })).rows[0];
  if (!found) return null;
  const { member_role, ...account } = found;
  if (account.disabled) return null;
  payers.set(account, login);
  return { user: account, acting: { accountId: account.id, member: login, role: member_role } };
}

/** The live session for a token, or null. Sliding expiry: each use pushes the end out again. */
export async function findSession(deps: Deps, token: string): Promise<Session | null> {
  const now = deps.clock.now();
  // The session and its user in one query (one round trip on every signed-in request).
  const found = (await sessionWithUser.execute(deps.db, { tokenHash: sha256(token) })).rows[0];
  if (!found) return null;
  const { session_id, session_user_id, session_expires_at, session_last_seen_at, session_revoked_at, session_acting_for, ...userColumns } = found;
  const row = { id: session_id, user_id: session_user_id, expires_at: session_expires_at, last_seen_at: session_last_seen_at, revoked_at: session_revoked_at };
  if (row.revoked_at !== null || row.expires_at <= now) return null;
  let as: { user: User | null; acting: Acting | null } = { user: null, acting: null };
  if (row.user_id !== null) {
    if (userColumns.id === null) return null;
    const login = userColumns as User;
    if (login.disabled) return null;
    const acting = await actingOf(deps, login, session_acting_for);
    if (!acting) return null;
    as = acting;
  }
  const ttl = deps.config.SESSION_TTL_DAYS * DAY_MS;
  // Extend at most once a minute, so reads do not each write.
  if (now - row.last_seen_at > 60_000) {
    await deps.db.updateTable('sessions').set({ last_seen_at: now, expires_at: now + ttl }).where('id', '=', row.id).execute();
    return { id: row.id, ...as, expires_at: now + ttl };
  }
  return { id: row.id, ...as, expires_at: row.expires_at };
}

/** Any session (visitor or user), else code -1 (the client signs out). */
export async function requireSession(c: Context<AppEnv>): Promise<Session> {
  const token = tokenOf(c);
  const session = token ? await findSession(c.get('deps'), token) : null;
  if (!session) throw new AppError('session_expired');
  return session;
}

/** A signed-in user; a visitor is told guests cannot perform the operation. `user` is the account the
 *  request acts as. For an organisation's account every write names what it needs (`need`) and the
 *  member's role must allow it; a write that names nothing is refused (fail closed). The acting member is
 *  kept on the context for the activity log (lib/idempotency.ts). */
export async function requireUser(c: Context<AppEnv>, need?: Capability): Promise<{ session: Session; user: User }> {
  const session = await requireSession(c);
  if (!session.user) throw new AppError('guest_forbidden');
  const acting = session.acting;
  if (acting) {
    const isRead = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (need ? !roleCan(acting.role, need) : !isRead) throw new AppError('org_role_forbidden');
    // A trade write moves the organisation's money: the membership and role are read again in its own
    // transaction, so a buy or withdrawal in flight when the member is removed or demoted commits nothing.
    // The writes on members check theirs in their own transactions (org/service.ts).
    const recheck = need === 'trade' ? TRADERS : undefined;
    c.set('acting', { accountId: acting.accountId, memberId: acting.member.id, recheck });
  }
  return { session, user: session.user };
}

/** The signed-in person's own login, whatever account the session acts as: their login and payment
 *  passwords are their own. */
export async function requirePerson(c: Context<AppEnv>): Promise<{ session: Session; person: User }> {
  const session = await requireSession(c);
  if (!session.user) throw new AppError('guest_forbidden');
  return { session, person: session.acting?.member ?? session.user };
}


/** Ends one session; its open sockets close (the hub reads the session_end event). */
export async function revokeSession(deps: Deps, sessionId: number): Promise<void> {
  const now = deps.clock.now();
  // Not a request's effect (no idempotency record): it commits whatever becomes of the request.
  await writeTx(deps.db, async (tx, w) => {
    const row = await tx.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).returning(['user_id', 'acting_for']).executeTakeFirst();
    // A socket is filed under the account its session acts as: the organisation's for a member acting for one.
    if (row?.user_id != null) await publish(w, { type: 'session_end', sessions: [sessionId] }, row.acting_for ?? row.user_id, now);
  });
}

/** Ends every session of a user (but `exceptSessionId`), inside the caller's transaction, and closes their
 *  sockets: password change and reset, login lock, payment-password lock, freeze. */
export async function endUserSessions(w: WriteScope, userId: number, now: number, exceptSessionId?: number): Promise<void> {
  let q = w.tx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) q = q.where('id', '<>', exceptSessionId);
  const ended = await q.returning(['id', 'acting_for']).execute();
  // A socket is filed under the account its session acts as: one event per account (the user's own, and each
  // organisation they act for).
  const byAccount = new Map<number, number[]>();
  for (const r of ended) {
    const account = r.acting_for ?? userId;
    byAccount.set(account, [...(byAccount.get(account) ?? []), r.id]);
  }
  for (const [account, sessions] of byAccount) await publish(w, { type: 'session_end', sessions }, account, now);
  // The devices she turned on, under her own account and each organisation's (a device names its person).
  await forgetPushDevices(w, userId);
}

/** A device that turned notifications on with a session that ends must receive the account's notices no
 *  longer (a stolen session's phone after her password change). No row says which session turned a device
 *  on, so every device the person turned on goes, under her own account and each organisation's she acts
 *  for; the app of a device still signed in turns it on again (app lib/push.ts resyncPush). `accountId`
 *  narrows it to the devices she turned on for one account (her removal from an organisation). */
export async function forgetPushDevices(w: WriteScope, personId: number, accountId?: number): Promise<void> {
  let devices = w.tx.selectFrom('push_subscriptions').select('id').where('person_id', '=', personId);
  if (accountId !== undefined) devices = devices.where('user_id', '=', accountId);
  const ids = (await devices.execute()).map((r) => r.id);
  if (ids.length === 0) return;
  await w.tx.deleteFrom('push_queue').where('subscription_id', 'in', ids).execute();
  await w.tx.deleteFrom('push_subscriptions').where('id', 'in', ids).execute();
}
