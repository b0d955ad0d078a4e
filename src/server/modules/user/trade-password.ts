import type { Deps } from '../../app';
import { AppError } from '../../lib/http';
import { verifyPassword } from '../../lib/crypto';
import { writeTx, type Tx } from '../../db/tx';
import { post, walletOf } from '../../ledger/ledger';
import { publish } from '../../live/events';
import { PASSWORD_MAX_ATTEMPTS } from '../../../shared/constants';
import type { ErrorKey } from '../../../shared/errors';
import type { User } from '../session';

// The withdrawal password is also the payment password for orders (DECISIONS "Accounts"). Wrong attempts
// answer "attempts left: n"; the 5th locks the account and freezes its available balance (moved to frozen
// with a fund log of kind lock_freeze) until an operator unlocks it (user:unlock reverses the freeze).

/** Refuses risk accounts (DECISIONS: a risk account cannot order or withdraw). */
export function assertNotRisk(user: User): void {
  if (user.risk) throw new AppError('risk_forbidden');
}

export async function verifyTradePassword(deps: Deps, user: User, password: string, wrongKey: ErrorKey): Promise<void> {
  if (user.trade_locked) throw new AppError('account_locked');
  if (!user.withdraw_password_hash) throw new AppError('withdraw_password_unset');
  if (await verifyPassword(password, user.withdraw_password_hash)) {
    if (user.trade_fails > 0) await deps.db.updateTable('users').set({ trade_fails: 0 }).where('id', '=', user.id).execute();
    return;
  }
  const now = deps.clock.now();
  const outcome = await writeTx(deps.db, async (tx) => {
    const row = await tx
      .updateTable('users')
      .set((eb) => ({ trade_fails: eb('trade_fails', '+', 1) }))
      .where('id', '=', user.id)
      .where('trade_locked', '=', 0)
      .returning(['trade_fails'])
      .executeTakeFirst();
    if (!row) return { locked: true, left: 0, fresh: false }; // locked meanwhile by a concurrent attempt
    if (row.trade_fails < PASSWORD_MAX_ATTEMPTS) return { locked: false, left: PASSWORD_MAX_ATTEMPTS - row.trade_fails, fresh: false };
    await tx.updateTable('users').set({ trade_locked: 1, updated_at: now }).where('id', '=', user.id).execute();
    await freezeForLock(tx, user.id, now);
    await publish(tx, { type: 'invalidate', tables: ['user', 'fundlogs'] }, user.id, now);
    return { locked: true, left: 0, fresh: true };
  });
  if (outcome.locked) throw new AppError(outcome.fresh ? 'balance_frozen' : 'account_locked');
  throw new AppError(wrongKey, { n: outcome.left });
}

async function freezeForLock(tx: Tx, userId: number, now: number): Promise<void> {
  const { available } = await walletOf(tx, userId);
  if (available <= 0) return;
  await post(tx, {
    kind: 'lock_freeze',
    ref_type: 'user',
    ref_id: userId,
    memo: 'Balance frozen after repeated wrong withdrawal passwords',
    now,
    postings: [
      { owner: userId, account: 'available', amount: -available },
      { owner: userId, account: 'frozen', amount: available },
    ],
  });
}

/** Operator unlock: clears the lock and moves what the lock froze back to available. */
export async function unlockTrading(tx: Tx, userId: number, now: number): Promise<number> {
  const rows = await tx
    .selectFrom('fund_logs')
    .select(['kind', 'amount'])
    .where('owner_id', '=', userId)
    .where('account_name', '=', 'frozen')
    .where('kind', 'in', ['lock_freeze', 'lock_unfreeze'])
    .execute();
  const frozenByLock = rows.reduce((sum, r) => sum + r.amount, 0);
  if (frozenByLock > 0) {
    await post(tx, {
      kind: 'lock_unfreeze',
      ref_type: 'user',
      ref_id: userId,
      memo: 'Unlocked by an operator',
      now,
      postings: [
        { owner: userId, account: 'frozen', amount: -frozenByLock },
        { owner: userId, account: 'available', amount: frozenByLock },
      ],
    });
  }
  return frozenByLock;
}
