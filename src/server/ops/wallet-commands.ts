import type { DB } from '../db/connection';
import { writeTx, type Tx, type WriteScope } from '../db/tx';
import { walletOf } from '../ledger/ledger';
import { AppError } from '../lib/http';
import { formatSgd } from '../../shared/money';
import { errorMessage } from '../../shared/errors';
import { TOPUP_STATUSES, WITHDRAWAL_STATUSES } from '../../shared/schemas/wallet';
import { WalletStateError } from '../modules/wallet/checks';
import { completeWithdrawal, confirmTopup, refuseWithdrawal, rejectTopup } from '../modules/wallet/service';
import { OpsError, type Command } from './commands';
import { arg, choiceFlag, limitFlag, positiveInt, UsageError, type Parsed } from './args';

// Operator commands of the wallet (docs/product.md#operators). Each step acts only on a record in the right
// state (a pending top-up, a processing withdrawal), in one write transaction; asked twice, the second run is
// refused with the record's current state and changes nothing.

/** Runs one operator step; a wrong state (or a ledger refusal) becomes an OpsError (exit 1). */
async function step<T>(db: DB, fn: (w: WriteScope) => Promise<T>): Promise<T> {
  try {
    return await writeTx(db, (_tx, w) => fn(w));
  } catch (err) {
    if (err instanceof WalletStateError) throw new OpsError(err.message);
    if (err instanceof AppError) throw new OpsError(errorMessage(err.key, 'en', err.params));
    throw err;
  }
}

function reasonOf(args: Parsed): string {
  const r = args.flags.reason;
  if (r === undefined) return '';
  if (typeof r !== 'string' || r.trim() === '') throw new UsageError('--reason needs a text');
  if (r.length > 140) throw new UsageError('--reason must be at most 140 characters');
  return r.trim();
}


async function emailOf(db: DB | Tx, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email ?? `user #${userId}`;
}

export const WALLET_COMMANDS: Record<string, Command> = {
  'topup:list': {
    usage: `topup:list [--status ${TOPUP_STATUSES.join('|')}] [--limit N]`,
    flags: ['status', 'limit'],
    summary: 'Top-ups, newest first (default: all statuses, 50)',
    async run({ db }, args) {
      const status = choiceFlag(args, 'status', TOPUP_STATUSES);
      let q = db.selectFrom('topups as t').innerJoin('users as u', 'u.id', 't.user_id').selectAll('t').select('u.email').orderBy('t.id', 'desc');
      if (status) q = q.where('t.status', '=', status);
      const rows = await q.limit(limitFlag(args, 50)).execute();
      const text = rows.length
        ? rows.map((r) => `#${r.id} ${r.status.padEnd(8)} ${formatSgd(r.amount).padStart(14)} ${r.method.padEnd(6)} ref ${r.reference}${r.flag ? ` [${r.flag}${r.received_amount !== null && r.received_amount !== r.amount ? ` received ${formatSgd(r.received_amount)}` : ''}]` : ''}  ${r.email}  ${new Date(r.created_at).toISOString()}`).join('\n')
        : 'no top-ups';
      return { data: rows, text };
    },
  },
  'topup:confirm': {
    usage: 'topup:confirm ID',
    summary: 'The money arrived: credit a pending top-up to the user\'s available balance',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const row = await step(db, (w) => confirmTopup(w, id, clock.now()));
      const email = await emailOf(db, row.user_id);
      const wallet = await walletOf(db, row.user_id);
      return { data: { topup: row, email, wallet }, text: `top-up #${id} credited: ${formatSgd(row.amount)} to ${email} (available now ${formatSgd(wallet.available)})` };
    },
  },
  'topup:reject': {
    usage: 'topup:reject ID [--reason TEXT]',
    flags: ['reason'],
    summary: 'The money did not arrive: reject a pending top-up (nothing is credited)',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const reason = reasonOf(args);
      const row = await step(db, (w) => rejectTopup(w, id, clock.now(), reason));
      const email = await emailOf(db, row.user_id);
      return { data: { topup: row, email }, text: `top-up #${id} rejected: ${formatSgd(row.amount)} for ${email}${reason ? ` (${reason})` : ''}` };
    },
  },
  'withdrawal:list': {
    usage: `withdrawal:list [--status ${WITHDRAWAL_STATUSES.join('|')}] [--limit N]`,
    flags: ['status', 'limit'],
    summary: 'Withdrawals with their payout accounts, newest first (default: all statuses, 50)',
    async run({ db }, args) {
      const status = choiceFlag(args, 'status', WITHDRAWAL_STATUSES);
      let q = db.selectFrom('withdrawals as w').innerJoin('users as u', 'u.id', 'w.user_id').selectAll('w').select('u.email').orderBy('w.id', 'desc');
      if (status) q = q.where('w.status', '=', status);
      const rows = await q.limit(limitFlag(args, 50)).execute();
      const text = rows.length
        ? rows
            .map((r) => {
              const to = r.method === 'paynow' ? `PayNow ${r.paynow}` : `${r.bank_name} ${r.account_no}`;
              return `#${r.id} ${r.status.padEnd(10)} ${formatSgd(r.amount).padStart(14)} fee ${formatSgd(r.fee)}  to ${to} (${r.holder_name})  ${r.email}  ${new Date(r.created_at).toISOString()}`;
            })
            .join('\n')
        : 'no withdrawals';
      return { data: rows, text };
    },
  },
  'withdrawal:complete': {
    usage: 'withdrawal:complete ID',
    summary: 'The payout was made: the held amount leaves to the bank, the fee to the platform',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const row = await step(db, (w) => completeWithdrawal(w, id, clock.now()));
      const email = await emailOf(db, row.user_id);
      return { data: { withdrawal: row, email }, text: `withdrawal #${id} completed: ${formatSgd(row.amount)} paid to ${email} (fee ${formatSgd(row.fee)})` };
    },
  },
  'withdrawal:refuse': {
    usage: 'withdrawal:refuse ID [--reason TEXT]',
    flags: ['reason'],
    summary: 'Refuse a processing withdrawal: amount and fee go back to the user\'s available balance',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const reason = reasonOf(args);
      const row = await step(db, (w) => refuseWithdrawal(w, id, clock.now(), reason));
      const email = await emailOf(db, row.user_id);
      const wallet = await walletOf(db, row.user_id);
      return {
        data: { withdrawal: row, email, wallet },
        text: `withdrawal #${id} refused: ${formatSgd(row.amount + row.fee)} back to ${email} (available now ${formatSgd(wallet.available)})${reason ? ` (${reason})` : ''}`,
      };
    },
  },
};
