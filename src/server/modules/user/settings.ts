import type { Selectable } from 'kysely';
import { writeTx, type EffectRecord } from '../../db/tx';
import type { Deps } from '../../env';
import type { NotificationsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import type { NotificationItem } from '../../../shared/schemas/wallet';
import { AppError } from '../../lib/http';
import { hashIn } from '../../lib/hash-work';
import { checkCounted } from './attempts';
import { verifyTradePassword } from './trade-password';
import { publish } from '../../live/events';
import type { ErrorKey } from '../../../shared/errors';
import { endUserSessions, type User } from '../session';
import type { ProfileView } from '../../../shared/schemas/wallet';

// Account settings: payment password, login password, personal information (docs/product.md#validation,
// docs/product.md#accounts). Re-entering the login password inside the app counts toward the same 5-attempt
// login lock as the login form, so a stolen session cannot be used to guess the password without limit.

/** The login password typed inside a session (counted toward the login lock; the lock ends every session). */
export async function checkLoginPassword(deps: Deps, user: User, password: string, wrongKey: ErrorKey): Promise<void> {
  if (user.login_locked) throw new AppError('login_locked');
  const result = await checkCounted(deps, {
    userId: user.id,
    counter: 'login',
    password,
    lane: 'user',
    onLock: (w, now) => endUserSessions(w, user.id, now),
  });
  if (result.outcome === 'ok') return;
  throw new AppError(result.outcome === 'wrong' ? wrongKey : 'login_locked');
}

/** Sets or changes the withdrawal (payment) password. The login password proves it is the user; changing
 *  an existing one also needs the current one (counted like any payment-password attempt), so whoever
 *  learns the login password alone cannot take over payouts. A forgotten one: `ops user:withdpwd-reset`. */
export async function setWithdrawPassword(deps: Deps, user: User, input: { password: string; login_password: string; old_password?: string }, record?: EffectRecord): Promise<null> {
  if (user.trade_locked) throw new AppError('account_locked');
  if (user.withdraw_password_hash && !input.old_password) throw new AppError('required', undefined, { field: 'old_password' });
  await deps.limits.consume([['password_change_account', String(user.id)]]);
  if (user.withdraw_password_hash) await verifyTradePassword(deps, user, input.old_password ?? '', 'trade_password_incorrect');
  await checkLoginPassword(deps, user, input.login_password, 'password_incorrect');
  // The login password was just verified, so comparing with what the user typed is comparing with it.
  if (input.password.normalize('NFKC') === input.login_password.normalize('NFKC')) throw new AppError('payment_password_same', undefined, { field: 'password' });
  const hash = await hashIn(deps.config, 'user', input.password, `user:${user.id}`);
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    const updated = await tx
      .updateTable('users')
      .set({ withdraw_password_hash: hash, trade_fails: 0, updated_at: now })
      .where('id', '=', user.id)
      .where('trade_locked', '=', 0) // locked meanwhile by a wrong payment password: the lock wins
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('account_locked');
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
    return null;
  }, record);
}

/** Changes the login password; every other session of the user ends (this one stays signed in). */
export async function changeLoginPassword(deps: Deps, user: User, sessionId: number, input: { old_password: string; password: string }, record?: EffectRecord): Promise<null> {
  await deps.limits.consume([['password_change_account', String(user.id)]]);
  await checkLoginPassword(deps, user, input.old_password, 'old_password_incorrect');
  // The new login password is NOT compared with the payment password: "they differ" is enforced where
  // the payment password is set (both known in clear there). Comparing here would answer, for each new
  // login password, whether it is the payment password: an uncounted oracle for whoever holds a session
  // and the login password (docs/decisions/0004-trust.md).
  const hash = await hashIn(deps.config, 'user', input.password, `user:${user.id}`);
  const now = deps.clock.now();
  // One transaction: a new password never lives beside the old sessions it must end (their sockets close).
  return writeTx(deps.db, async (tx, w) => {
    await tx.updateTable('users').set({ password_hash: hash, login_fails: 0, updated_at: now }).where('id', '=', user.id).execute();
    await endUserSessions(w, user.id, now, sessionId);
    return null;
  }, record);
}


export async function updateProfile(deps: Deps, user: User, input: Omit<ProfileView, 'realname'>, record?: EffectRecord): Promise<ProfileView> {
  const now = deps.clock.now();
  const first_name = input.first_name.replace(/\s+/g, ' ');
  const last_name = input.last_name.replace(/\s+/g, ' ');
  return writeTx(deps.db, async (tx, w) => {
    await tx
      .updateTable('users')
      .set({ first_name, last_name, mobile: input.mobile, ic_number: input.ic_number, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
    return { first_name, last_name, realname: `${first_name} ${last_name}`, mobile: input.mobile, ic_number: input.ic_number };
  }, record);
}

export function notificationItem(row: Selectable<NotificationsTable>): NotificationItem {
  return {
    id: row.id,
    title: row.title,
    title_cn: row.title_cn,
    body: row.body,
    body_cn: row.body_cn,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
    read: row.read_at !== null,
  };
}
