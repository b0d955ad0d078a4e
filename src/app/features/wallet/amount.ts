import { parseSgdToCents } from '../../../shared/money';
import { withdrawalFee, type WithdrawalFeeLimits } from '../../../shared/fees';
import { AMOUNT_MAX_CENTS } from '../../../shared/schemas/wallet';

// Pure money helpers of the wallet screens. Amounts are integer cents from the moment the user's text is
// parsed (parseSgdToCents, never floats); the fee comes from the same function the server charges with.

/** A typed S$ amount as cents; null when it is not a positive amount the API accepts. */
export function parseAmount(text: string): number | null {
  const cents = parseSgdToCents(text.trim());
  if (cents === null || cents <= 0 || cents > AMOUNT_MAX_CENTS) return null;
  return cents;
}

/** Cents as the text an amount input shows ("1234.50"), without the currency or thousands separators. */
export function centsToInput(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not integer cents: ${cents}`);
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export interface WithdrawalLimits extends WithdrawalFeeLimits {
  withdraw_min: number;
  withdraw_max: number;
}

export type WithdrawalProblem = 'empty' | 'invalid' | 'below_min' | 'above_max' | 'insufficient';

export interface WithdrawalPreview {
  amount: number | null; // what the user receives
  fee: number | null; // handling fee
  total: number | null; // amount + fee: what leaves the available balance
  problem: WithdrawalProblem | null;
}

/**
 * What a withdrawal of `text` would cost, checked against the server's limits and the available balance in
 * the order the server checks them (limits first, the balance for amount + fee last). The server decides;
 * this only lets the user see the fee and total before confirming.
 */
export function previewWithdrawal(text: string, limits: WithdrawalLimits, available: number | null): WithdrawalPreview {
  if (text.trim() === '') return { amount: null, fee: null, total: null, problem: 'empty' };
  const amount = parseAmount(text);
  if (amount === null) return { amount: null, fee: null, total: null, problem: 'invalid' };
  const fee = withdrawalFee(amount, limits);
  const total = amount + fee;
  let problem: WithdrawalProblem | null = null;
  if (amount < limits.withdraw_min) problem = 'below_min';
  else if (amount > limits.withdraw_max) problem = 'above_max';
  else if (available !== null && total > available) problem = 'insufficient';
  return { amount, fee, total, problem };
}

/** +1 money in, -1 out, 0 none: the colour of a fund log amount (+ green, − neutral). */
export function amountDirection(amount: number): 'in' | 'out' | 'none' {
  return amount > 0 ? 'in' : amount < 0 ? 'out' : 'none';
}

/** Kinds that move the member's own money out of the available balance into a held one (pre-sale balance,
 *  frozen): on the held side the row is money set aside, not money received. */
const HOLD_KINDS: ReadonlySet<string> = new Set(['presale_booking', 'withdrawal_apply', 'lock_freeze']);
const HELD_ACCOUNTS: ReadonlySet<string> = new Set(['presale', 'frozen']);

export type FundLogDirection = 'in' | 'out' | 'none' | 'held';

/** How a fund log row reads: a green "+" only for money that really came in; the held side of a booking fee,
 *  a withdrawal or a freeze is "held" (unsigned, neutral), since for the member it is money out. */
export function fundLogDirection(row: { kind: string; account_name: string; amount: number }): FundLogDirection {
  if (row.amount > 0 && HOLD_KINDS.has(row.kind) && HELD_ACCOUNTS.has(row.account_name)) return 'held';
  return amountDirection(row.amount);
}
