import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { type Tx } from '../../db/tx';
import { checkCounted } from './attempts';
import { endUserSessions, payerOf } from '../session';
import { post, walletOf } from '../../ledger/ledger';
import { publish } from '../../live/events';
import type { ErrorKey } from '../../../shared/errors';
import type { User } from '../session';

// The payment password pays for orders and withdrawals (docs/product.md#accounts). Wrong attempts
// answer "attempts left: n"; the 5th locks the account and freezes its available balance (moved to frozen
// with a fund log of kind lock_freeze) until an operator unlocks it (user:unlock reverses the freeze).

/** Refuses risk accounts (docs/product.md#roles: a risk account cannot order or withdraw). */
export function assertNotRisk(user: Pick<User, 'risk'>): void {
  if (user.risk) throw new AppError('risk_forbidden');
}

/** Checks the payment (withdrawal) password with the attempt reserved before the hash (see attempts.ts).
 *  `beforeStart` re-runs the request's cheap checks once a hash slot is free (a project sold out while
 *  the request queued is refused in milliseconds, at no attempt). The 5th wrong attempt locks trading,
 *  freezes the available balance and ends every session of the user (their sockets close). */
export async function verifyTradePassword(deps: Deps, account: User, password: string, wrongKey: ErrorKey, beforeStart?: () => Promise<void>): Promise<void> {
  // A member acting for an organisation types their own payment password; its attempts and lock are theirs.
  const user = payerOf(account);
  if (user.trade_locked) throw new AppError('account_locked');
  if (!user.withdraw_password_hash) throw new AppError('withdraw_password_unset');
  // Benchmarks only (Deps.skipPaymentPassword): no hash, and with it no recheck once a hash slot frees.
  if (deps.skipPaymentPassword) return;
  const result = await checkCounted(deps, {
    userId: user.id,
    counter: 'trade',
    password,
    lane: 'user',
    beforeStart,
    onLock: async (w, now) => {
      await freezeForLock(w.tx, user.id, now);
      await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs'] }, user.id, now);
      await endUserSessions(w, user.id, now);
    },
  });
  switch (result.outcome) {
    case 'ok':
      return;
    case 'unset':
      throw new AppError('withdraw_password_unset');
    case 'locked':
      throw new AppError(result.fresh ? 'balance_frozen' : 'account_locked');
    case 'wrong':
      throw new AppError(wrongKey, { n: result.left });
  }
}

/** The request's cheap checks, then the payment password: `checks` (the same checks the write transaction
 *  makes again) refuse what they can before the hash is paid for, and once more when a hash slot frees, so
 *  a sold-out burst is answered in milliseconds without hashing. With the password check skipped
 *  (Deps.skipPaymentPassword, benchmarks only) there is no hash to spare, so they are not run before the
 *  transaction: its own checks answer the same refusals. */
export async function checkThenVerify(deps: Deps, user: User, password: string, wrongKey: ErrorKey, checks: () => Promise<void>): Promise<void> {
  if (!deps.skipPaymentPassword) await checks();
  await verifyTradePassword(deps, user, password, wrongKey, checks);
}

async function freezeForLock(tx: Tx, userId: number, now: number): Promise<void> {
  const { available } = await walletOf(tx, userId);
  if (available <= 0) return;
  await post(tx, {
    kind: 'lock_freeze',
    ref_type: 'user',
    ref_id: userId,
    memo: 'Balance frozen after repeated wrong payment passwords',
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
