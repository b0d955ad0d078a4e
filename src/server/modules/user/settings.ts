import type { Selectable } from 'kysely';
import { writeTx } from '../../db/tx';
import type { Deps } from '../../app';
import type { NotificationsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import type { NotificationItem } from '../../../shared/schemas/wallet';
import { AppError } from '../../lib/http';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { publish } from '../../live/events';
import { LOGIN_MAX_ATTEMPTS } from '../../../shared/constants';
import type { ErrorKey } from '../../../shared/errors';
import type { User } from '../session';

// Account settings: withdrawal password, login password, personal information (SPEC section 5, DECISIONS
// "Accounts"). Re-entering the login password inside the app counts toward the same 5-attempt login lock
// as the login form, so a stolen session cannot be used to guess the password without limit.

async function checkLoginPassword(deps: Deps, user: User, password: string, wrongKey: ErrorKey): Promise<void> {
  if (user.login_locked) throw new AppError('login_locked');
  if (await verifyPassword(password, user.password_hash)) {
    if (user.login_fails > 0) await deps.db.updateTable('users').set({ login_fails: 0 }).where('id', '=', user.id).execute();
    return;
  }
  const row = await deps.db
    .updateTable('users')
    .set((eb) => ({ login_fails: eb('login_fails', '+', 1), login_locked: eb.case().when('login_fails', '>=', LOGIN_MAX_ATTEMPTS - 1).then(1).else(0).end() }))
    .where('id', '=', user.id)
    .returning(['login_locked'])
    .executeTakeFirstOrThrow();
  throw new AppError(row.login_locked ? 'login_locked' : wrongKey);
}

/** Sets or changes the withdrawal (payment) password; the login password proves it is the user. */
export async function setWithdrawPassword(deps: Deps, user: User, input: { password: string; login_password: string }): Promise<null> {
  if (user.trade_locked) throw new AppError('account_locked');
  await checkLoginPassword(deps, user, input.login_password, 'password_incorrect');
  // The login password was just verified, so comparing with what the user typed is comparing with it.
  if (input.password.normalize('NFKC') === input.login_password.normalize('NFKC')) throw new AppError('payment_password_same', undefined, { field: 'password' });
  const hash = await hashPassword(input.password, deps.config.SCRYPT_LOG2_N);
  const now = deps.clock.now();
  const updated = await deps.db
    .updateTable('users')
    .set({ withdraw_password_hash: hash, trade_fails: 0, updated_at: now })
    .where('id', '=', user.id)
    .where('trade_locked', '=', 0) // locked meanwhile by a wrong payment password: the lock wins
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new AppError('account_locked');
  await publish(deps.db, { type: 'invalidate', tables: ['user'] }, user.id, now);
  return null;
}

/** Changes the login password; every other session of the user ends (this one stays signed in). */
export async function changeLoginPassword(deps: Deps, user: User, sessionId: number, input: { old_password: string; password: string }): Promise<null> {
  await checkLoginPassword(deps, user, input.old_password, 'old_password_incorrect');
  // The two passwords must differ both ways (DECISIONS "Accounts").
  if (user.withdraw_password_hash && (await verifyPassword(input.password, user.withdraw_password_hash))) {
    throw new AppError('payment_password_same', undefined, { field: 'password' });
  }
  const hash = await hashPassword(input.password, deps.config.SCRYPT_LOG2_N);
  const now = deps.clock.now();
  // One transaction: a new password never lives beside the old sessions it must end.
  await writeTx(deps.db, async (tx) => {
    await tx.updateTable('users').set({ password_hash: hash, login_fails: 0, updated_at: now }).where('id', '=', user.id).execute();
    await tx
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', user.id)
      .where('id', '<>', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  });
  return null;
}

export interface ProfileView {
  first_name: string;
  last_name: string;
  realname: string;
  mobile: string;
  ic_number: string;
}

export async function updateProfile(deps: Deps, user: User, input: Omit<ProfileView, 'realname'>): Promise<ProfileView> {
  const now = deps.clock.now();
  const first_name = input.first_name.replace(/\s+/g, ' ');
  const last_name = input.last_name.replace(/\s+/g, ' ');
  await deps.db
    .updateTable('users')
    .set({ first_name, last_name, mobile: input.mobile, ic_number: input.ic_number, updated_at: now })
    .where('id', '=', user.id)
    .execute();
  await publish(deps.db, { type: 'invalidate', tables: ['user'] }, user.id, now);
  return { first_name, last_name, realname: `${first_name} ${last_name}`, mobile: input.mobile, ic_number: input.ic_number };
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
