import type { Selectable } from 'kysely';
import type { Config } from '../../config';
import type { TopupFlag, TopupsTable, WithdrawalsTable } from '../../db/schema';
import { sgtDay } from '../../lib/clock';
import { AppError } from '../../lib/http';
import { formatSgd } from '../../../shared/money';
import { withdrawalFee } from '../../../shared/fees';
import type { ErrorKey } from '../../../shared/errors';
import { holderMatches, paynowMatches, type PayoutAccount } from '../user/card';
import type { User } from '../session';
import { assertNotRisk } from '../user/trade-password';

// The wallet's checks (docs/product.md#wallet-and-ledger): pure functions of the facts a top-up or withdrawal
// step read, shared by the member's request, the operator CLI and the bank-statement import. A member's
// refusal is an AppError whose key is the catalogue's (docs/product.md#error-catalogue); an operator step
// asked of a record in the wrong state is a WalletStateError. The first failing check answers, in the order
// below.

type TopupRow = Selectable<TopupsTable>;
type WithdrawalRow = Selectable<WithdrawalsTable>;

/** An operator step asked of a record in the wrong state (or of no record): nothing changed. */
export class WalletStateError extends Error {}

const since = (row: { decided_at: number | null }) => (row.decided_at ? ` (since ${new Date(row.decided_at).toISOString()})` : '');

// ---------------------------------------------------------------------------------------------------
// Top-ups

/** A top-up request's amount: TOPUP_MIN_CENTS at least. */
export function checkTopupRequest(amount: number, config: Pick<Config, 'TOPUP_MIN_CENTS'>): void {
  const min = config.TOPUP_MIN_CENTS;
  if (amount < min) throw new AppError('topup_below_min', { n: formatSgd(min) }, { field: 'amount' });
}

/** An operator's decision (credit or reject) on top-up #id: it exists and is still pending. */
export function checkTopupDecision(row: TopupRow | undefined, id: number): TopupRow {
  if (!row) throw new WalletStateError(`no top-up #${id}`);
  if (row.status !== 'pending') throw new WalletStateError(`top-up #${row.id} is already ${row.status}${since(row)}; nothing changed`);
  return row;
}

/** What a statement line pays, once its references found `topup` (undefined: none, or several): nothing
 *  (null: the line waits for an operator); a pending top-up, matched ('') or flagged for another amount or
 *  a payment booked after its expiry day (SGT); or a second payment under a top-up no longer pending. */
export function lineMatch(line: { amount: number; booked_on: string; batch?: boolean | undefined }, topup: TopupRow | undefined): TopupFlag | null {
  if (line.batch || !topup) return null;
  if (topup.status !== 'pending') return 'double';
  const late = topup.expires_at !== null && line.booked_on > sgtDay(topup.expires_at).date;
  return line.amount !== topup.amount ? 'amount' : late ? 'late' : '';
}

// ---------------------------------------------------------------------------------------------------
// Withdrawals

export interface WithdrawalInput {
  amount: number;
  password: string;
  method?: 'bank' | 'paynow' | undefined;
}

/** What a withdrawal request is checked against: the user's payout account (null: none bound), whether a
 *  withdrawal of theirs that was not refused is dated today (SGT), and their available balance. */
export interface WithdrawalFacts {
  account: PayoutAccount | null;
  withdrawnToday: boolean;
  available: number;
}

type WithdrawalConfig = Pick<Config, 'WITHDRAW_MIN_CENTS' | 'WITHDRAW_MAX_CENTS' | 'PUBLIC_HOLIDAYS' | 'WITHDRAW_FEE_CENTS' | 'WITHDRAW_FEE_BP'>;

/** Withdrawals happen on working days in SGT: Mon-Fri, and not on the configured public holidays. */
function withdrawalDayBlock(now: number, publicHolidays: readonly string[]): ErrorKey | null {
  const { date, weekday } = sgtDay(now);
  if (weekday === 0 || weekday === 6) return 'withdraw_weekend';
  if (publicHolidays.includes(date)) return 'withdraw_holiday';
  return null;
}

/** The payout method a withdrawal uses: the one asked for if the account has it, else bank before PayNow. */
function payoutOf(account: PayoutAccount, method: 'bank' | 'paynow' | undefined): 'bank' | 'paynow' | null {
  const hasBank = account.bank_name !== '' && account.account_no !== '';
  const hasPaynow = account.paynow !== '';
  if (method === 'bank') return hasBank ? 'bank' : null;
  if (method === 'paynow') return hasPaynow ? 'paynow' : null;
  return hasBank ? 'bank' : hasPaynow ? 'paynow' : null;
}

/**
 * A withdrawal application (docs/product.md#withdrawals). Rules in this order (cheap, certain refusals
 * first; the password is verified after these, so a request that would be refused anyway never costs a
 * password attempt): risk, lock, amount limits, working day, payout account and holder, password set, once
 * a day, balance for amount + fee. Gives the fee, the payout method and the account it pays to.
 */
export function checkWithdrawal(facts: WithdrawalFacts, user: User, input: WithdrawalInput, config: WithdrawalConfig, now: number) {
  assertNotRisk(user);
  if (user.trade_locked) throw new AppError('account_locked');
  if (input.amount < config.WITHDRAW_MIN_CENTS) throw new AppError('withdraw_below_min', { n: formatSgd(config.WITHDRAW_MIN_CENTS) }, { field: 'amount' });
  if (input.amount > config.WITHDRAW_MAX_CENTS) throw new AppError('withdraw_above_max', { n: formatSgd(config.WITHDRAW_MAX_CENTS) }, { field: 'amount' });
  const dayBlock = withdrawalDayBlock(now, config.PUBLIC_HOLIDAYS);
  if (dayBlock) throw new AppError(dayBlock);
  const { account } = facts;
  const method = account ? payoutOf(account, input.method) : null;
  if (!account || !method || !holderMatches(user, account.holder_name)) throw new AppError('bank_incorrect');
  if (method === 'paynow' && !paynowMatches(user, account.paynow)) throw new AppError('bank_incorrect');
  if (!user.withdraw_password_hash) throw new AppError('withdraw_password_unset');
  if (facts.withdrawnToday) throw new AppError('withdraw_daily_limit');
  const fee = withdrawalFee(input.amount, { withdraw_fee: config.WITHDRAW_FEE_CENTS, withdraw_fee_bp: config.WITHDRAW_FEE_BP });
  if (facts.available < input.amount + fee) throw new AppError('insufficient_balance');
  return { fee, method, account };
}

/** An operator's decision (pay out or refuse) on withdrawal #id: it exists and is still processing. */
export function checkWithdrawalDecision(row: WithdrawalRow | undefined, id: number): WithdrawalRow {
  if (!row) throw new WalletStateError(`no withdrawal #${id}`);
  if (row.status !== 'processing') throw new WalletStateError(`withdrawal #${id} is already ${row.status}${since(row)}; nothing changed`);
  return row;
}
