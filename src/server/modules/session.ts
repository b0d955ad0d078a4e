import type { Context } from 'hono';
import type { AppEnv, Deps } from '../env';
import { newToken, sha256 } from '../lib/crypto';
import { AppError } from '../lib/http';
import type { UsersTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { writeTx, type WriteScope } from '../db/tx';
import { prepared } from '../db/prepared';
import { publish } from '../live/events';

export type User = Selectable<UsersTable>;

export interface Session {
  id: number;
  user: User | null; // null: visitor
  /** When it ends unless used again (sliding). */
  expires_at: number;
}

const DAY_MS = 86_400_000;

/** Reads the token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenOf(c: Context<AppEnv>): string | null {
  const header = c.req.header('authorization')?.trim();
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  return token.length >= 20 && token.length <= 200 ? token : null;
}

export async function createSession(deps: Deps, userId: number | null): Promise<{ token: string; expires_at: number }> {
  const now = deps.clock.now();
  const token = newToken();
  const expires_at = now + deps.config.SESSION_TTL_DAYS * DAY_MS;
  await deps.db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: userId, created_at: now, expires_at, last_seen_at: now, revoked_at: null })
    .execute();
  return { token, expires_at };
}

const sessionWithUser = prepared((db, p: { tokenHash: string }) =>
  db
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.user_id as session_user_id', 'sessions.expires_at as session_expires_at', 'sessions.last_seen_at as session_last_seen_at', 'sessions.revoked_at as session_revoked_at'])
    .where('sessions.token_hash', '=', p.tokenHash),
);

/** The live session for a token, or null. Sliding expiry: each use pushes the end out again. */
export async function findSession(deps: Deps, token: string): Promise<Session | null> {
  const now = deps.clock.now();
  // The session and its user in one query (one round trip on every signed-in request).
  const found = (await sessionWithUser.execute(deps.db, { tokenHash: sha256(token) })).rows[0];
  if (!found) return null;
  const { session_id, session_user_id, session_expires_at, session_last_seen_at, session_revoked_at, ...userColumns } = found;
  const row = { id: session_id, user_id: session_user_id, expires_at: session_expires_at, last_seen_at: session_last_seen_at, revoked_at: session_revoked_at };
  if (row.revoked_at !== null || row.expires_at <= now) return null;
  let user: User | null = null;
  if (row.user_id !== null) {
    if (userColumns.id === null) return null;
    user = userColumns as User;
    if (user.disabled) return null;
  }
  const ttl = deps.config.SESSION_TTL_DAYS * DAY_MS;
  // Extend at most once a minute, so reads do not each write.
  if (now - row.last_seen_at > 60_000) {
    await deps.db.updateTable('sessions').set({ last_seen_at: now, expires_at: now + ttl }).where('id', '=', row.id).execute();
    return { id: row.id, user, expires_at: now + ttl };
  }
  return { id: row.id, user, expires_at: row.expires_at };
}

/** Any session (visitor or user), else code -1 (the client signs out). */
export async function requireSession(c: Context<AppEnv>): Promise<Session> {
  const token = tokenOf(c);
  const session = token ? await findSession(c.get('deps'), token) : null;
  if (!session) throw new AppError('session_expired');
  return session;
}

/** A signed-in user; a visitor is told guests cannot perform the operation. */
export async function requireUser(c: Context<AppEnv>): Promise<{ session: Session; user: User }> {
  const session = await requireSession(c);
  if (!session.user) throw new AppError('guest_forbidden');
  return { session, user: session.user };
}


/** Ends one session; its open sockets close (the hub reads the session_end event). */
export async function revokeSession(deps: Deps, sessionId: number): Promise<void> {
  const now = deps.clock.now();
  // Not a request's effect (no idempotency record): it commits whatever becomes of the request.
  await writeTx(deps.db, async (tx, w) => {
    const row = await tx.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).returning(['user_id']).executeTakeFirst();
    if (row?.user_id != null) await publish(w, { type: 'session_end', sessions: [sessionId] }, row.user_id, now);
  });
}

/** Ends every session of a user (but `exceptSessionId`), inside the caller's transaction, and closes their
 *  sockets: password change and reset, login lock, payment-password lock, freeze. */
export async function endUserSessions(w: WriteScope, userId: number, now: number, exceptSessionId?: number): Promise<void> {
  let q = w.tx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) q = q.where('id', '<>', exceptSessionId);
  const ended = await q.returning(['id']).execute();
  if (ended.length > 0) await publish(w, { type: 'session_end', sessions: ended.map((r) => r.id) }, userId, now);
}
