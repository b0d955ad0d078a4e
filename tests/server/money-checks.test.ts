// The pure checks of retirement and of the wallet (src/server/modules/retire/checks.ts,
// src/server/modules/wallet/checks.ts): the first rule a request breaks answers, in the order
// docs/product.md gives, with no database; the same functions run before the payment password and inside
// the write transaction.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/lib/http';
import type { User } from '../../src/server/modules/session';
import { checkRetirement, freeSerialRanges, type RetirableProject } from '../../src/server/modules/retire/checks';
import { checkTopupDecision, checkWithdrawal, checkWithdrawalDecision, lineMatch, WalletStateError, type WithdrawalFacts } from '../../src/server/modules/wallet/checks';
import type { PayoutAccount } from '../../src/server/modules/user/card';

// A Thursday, 12:00 in Singapore.
const THURSDAY = Date.UTC(2026, 10, 26, 4);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err.key;
    if (err instanceof WalletStateError) return err.message;
    throw err;
  }
  return 'ok';
}

const member = (over: Partial<User> = {}): User =>
  ({ id: 1, risk: 0, trade_locked: 0, grade: 1, type: 'personal', first_name: 'Mei', last_name: 'Tan', company: '', withdraw_password_hash: 'x', ...over }) as User;

const noIccFacts = { host_country: '', programme: '', type: 'mangrove', methodology_id: '', methodology_date: '', reduction_start: null, reduction_end: null, authorisation: 'unknown', adjustment: 'unknown' } as const;

describe('checkRetirement', () => {
  const p: RetirableProject = { id: 7, name: 'Mangroves', name_cn: '', status: 'in_progress', registry: 'Verra', registry_id: 'VCS-1', standard: '', methodology: '', vintage: 2024, country: 'SG', country_cn: '', location: '', location_cn: '', total_tons: 100, ...noIccFacts };
  const facts = { p, held: { purchase: 3, presale: 2 }, pendingSale: 4 };

  it('takes credits bought outright first, then those of pre-sale origin', () => {
    expect(checkRetirement(facts, member(), 4)).toMatchObject({ fromPurchase: 3, fromPresale: 1 });
  });

  it('answers with the first rule broken: lock, risk, retirable, then the tons', () => {
    expect(refusal(() => checkRetirement({ ...facts, p: undefined }, member({ trade_locked: 1, risk: 1 }), 99))).toBe('account_locked');
    expect(refusal(() => checkRetirement({ ...facts, p: { ...p, registry_id: ' ' } }, member(), 99))).toBe('retire_not_retirable');
    expect(refusal(() => checkRetirement(facts, member(), 9))).toBe('retire_pending_sale');
    expect(refusal(() => checkRetirement(facts, member(), 10))).toBe('retire_insufficient_credits');
  });

  it('allocates the lowest free serials, as few ranges as the gaps allow', () => {
    expect(freeSerialRanges([{ first: 1, last: 2 }, { first: 5, last: 5 }], 10, 4)).toEqual([{ first: 3, last: 4 }, { first: 6, last: 7 }]);
    expect(refusal(() => freeSerialRanges([{ first: 1, last: 9 }], 10, 2))).toBe('retire_not_retirable');
  });
});

describe('checkWithdrawal', () => {
  const account = { bank_name: 'DBS', account_no: '0123456789', holder_name: 'Mei Tan', paynow: '' } as PayoutAccount;
  const facts: WithdrawalFacts = { account, withdrawnToday: false, available: 1_000_000 };
  const config = { WITHDRAW_MIN_CENTS: 10_000, WITHDRAW_MAX_CENTS: 5_000_000, PUBLIC_HOLIDAYS: [], WITHDRAW_FEE_CENTS: 200, WITHDRAW_FEE_BP: 0 };
  const input = { amount: 50_000, password: 'x' };

  it('gives the fee, the payout method and the account', () => {
    expect(checkWithdrawal(facts, member(), input, config, THURSDAY)).toMatchObject({ method: 'bank', account });
  });

  it('answers with the first rule broken, in the order the member meets them', () => {
    const broken = { account: null, withdrawnToday: true, available: 0 };
    expect(refusal(() => checkWithdrawal(broken, member(), { ...input, amount: 1 }, config, THURSDAY + 2 * 86_400_000))).toBe('withdraw_below_min');
    expect(refusal(() => checkWithdrawal(broken, member(), input, config, THURSDAY + 2 * 86_400_000))).toBe('withdraw_weekend');
    expect(refusal(() => checkWithdrawal(broken, member(), input, config, THURSDAY))).toBe('bank_incorrect');
    expect(refusal(() => checkWithdrawal({ ...broken, account }, member({ withdraw_password_hash: null }), input, config, THURSDAY))).toBe('withdraw_password_unset');
    expect(refusal(() => checkWithdrawal({ ...broken, account }, member(), input, config, THURSDAY))).toBe('withdraw_daily_limit');
    expect(refusal(() => checkWithdrawal({ ...facts, available: 50_100 }, member(), input, config, THURSDAY))).toBe('insufficient_balance');
  });
});

describe('operator decisions and statement lines', () => {
  const topup = { id: 5, status: 'pending', amount: 10_000, expires_at: THURSDAY, decided_at: null } as Parameters<typeof checkTopupDecision>[0] & object;

  it('decides only a pending top-up and a processing withdrawal', () => {
    expect(refusal(() => checkTopupDecision(undefined, 5))).toBe('no top-up #5');
    expect(refusal(() => checkTopupDecision({ ...topup, status: 'rejected' }, 5))).toBe('top-up #5 is already rejected; nothing changed');
    expect(refusal(() => checkWithdrawalDecision(undefined, 6))).toBe('no withdrawal #6');
  });

  it('matches a line to its top-up, or flags what differs', () => {
    const booked_on = '2026-11-26';
    expect(lineMatch({ amount: 10_000, booked_on }, topup)).toBe('');
    expect(lineMatch({ amount: 9_000, booked_on }, topup)).toBe('amount');
    expect(lineMatch({ amount: 10_000, booked_on: '2026-11-27' }, topup)).toBe('late');
    expect(lineMatch({ amount: 10_000, booked_on }, { ...topup, status: 'credited' })).toBe('double');
    expect(lineMatch({ amount: 10_000, booked_on, batch: true }, topup)).toBeNull();
    expect(lineMatch({ amount: 10_000, booked_on }, undefined)).toBeNull();
  });
});
