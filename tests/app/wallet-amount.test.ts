import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amountDirection, centsToInput, parseAmount, previewWithdrawal, type WithdrawalLimits } from '../../src/app/features/wallet/amount';
import { formatAmount as balanceText, formatSigned as signedAmount } from '../../src/app/lib/format';
import { withdrawalFee } from '../../src/shared/fees';
import { parseSgdToCents } from '../../src/shared/money';
import { AMOUNT_MAX_CENTS } from '../../src/shared/schemas/wallet';

// The wallet screens' money helpers: typed S$ text to integer cents (never floats), the fee preview the
// withdraw screen shows before confirming (must equal what the server charges: src/shared/fees.ts), and
// the signed amounts of the fund logs.

const LIMITS: WithdrawalLimits = { withdraw_min: 5000, withdraw_max: 5_000_000, withdraw_fee: 200, withdraw_fee_bp: 0 };

describe('parseAmount', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.01', 1],
    ['1,234.56', 123456],
    [' 50 ', 5000],
    ['S$100', 10000],
    ['$7.05', 705],
    ['0.1', 10],
  ])('%j is %i cents', (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  it.each(['', ' ', 'abc', '1.234', '-5', '0', '0.00', '1e3', '12.', '.5', '١٢', '1 000 000 000 000'])('%j is not an amount', (text) => {
    expect(parseAmount(text)).toBeNull();
  });

  it('never goes through floats: 0.29 and 1.15 are exact', () => {
    // 0.29 * 100 = 28.999999999999996 and 1.15 * 100 = 114.99999999999999 in floating point.
    expect(parseAmount('0.29')).toBe(29);
    expect(parseAmount('1.15')).toBe(115);
    expect(parseAmount('4.35')).toBe(435);
  });

  it('accepts exactly what parseSgdToCents accepts, within (0, AMOUNT_MAX_CENTS]', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.,$S '.split('')), maxLength: 14 }), (text) => {
        const shared = parseSgdToCents(text.trim());
        const expected = shared === null || shared <= 0 || shared > AMOUNT_MAX_CENTS ? null : shared;
        expect(parseAmount(text)).toBe(expected);
      }),
    );
  });

  it('round-trips with centsToInput', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999_999 }), (cents) => {
        expect(parseAmount(centsToInput(cents))).toBe(cents);
      }),
    );
    expect(centsToInput(5)).toBe('0.05');
    expect(centsToInput(123450)).toBe('1234.50');
    expect(() => centsToInput(1.5)).toThrow(RangeError);
  });
});

describe('previewWithdrawal', () => {
  it('shows the fee and total the server charges (src/shared/fees.ts), for any limits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (amount, fixed, bp) => {
        const limits = { ...LIMITS, withdraw_fee: fixed, withdraw_fee_bp: bp, withdraw_min: 1, withdraw_max: AMOUNT_MAX_CENTS };
        const p = previewWithdrawal(centsToInput(amount), limits, null);
        const fee = withdrawalFee(amount, limits);
        expect(p).toEqual({ amount, fee, total: amount + fee, problem: null });
      }),
    );
  });

  it('default config: S$100.00 costs S$2.00, total S$102.00', () => {
    expect(previewWithdrawal('100', LIMITS, 1_000_000)).toEqual({ amount: 10000, fee: 200, total: 10200, problem: null });
  });

  it('basis-point fee rounds down to the cent, as the server does', () => {
    const limits = { ...LIMITS, withdraw_fee: 0, withdraw_fee_bp: 50 }; // 0.5%
    expect(previewWithdrawal('123.45', limits, null).fee).toBe(61); // 12345 x 0.005 = 61.725
  });

  it('checks the limits, then the balance for amount + fee', () => {
    expect(previewWithdrawal('', LIMITS, 0).problem).toBe('empty');
    expect(previewWithdrawal('12.345', LIMITS, 0).problem).toBe('invalid');
    expect(previewWithdrawal('49.99', LIMITS, 1_000_000).problem).toBe('below_min');
    expect(previewWithdrawal('50', LIMITS, 1_000_000).problem).toBeNull();
    expect(previewWithdrawal('50000', LIMITS, 10_000_000).problem).toBeNull();
    expect(previewWithdrawal('50000.01', LIMITS, 10_000_000).problem).toBe('above_max');
    // Below the minimum is said first, even with no balance (the server's order).
    expect(previewWithdrawal('10', LIMITS, 0).problem).toBe('below_min');
    // The fee counts: S$100 + S$2 needs S$102.
    expect(previewWithdrawal('100', LIMITS, 10_199).problem).toBe('insufficient');
    expect(previewWithdrawal('100', LIMITS, 10_200).problem).toBeNull();
    // An unknown balance (not loaded) leaves the balance to the server.
    expect(previewWithdrawal('100', LIMITS, null).problem).toBeNull();
  });
});

describe('fund log amounts', () => {
  it('signs money and tons', () => {
    expect(signedAmount(1000, 'cents')).toBe('+S$10.00');
    expect(signedAmount(-10200, 'cents')).toBe('\u2212S$102.00');
    expect(signedAmount(0, 'cents')).toBe('S$0.00');
    expect(signedAmount(3, 'tons')).toBe('+3\u00a0t');
    expect(signedAmount(-1500, 'tons')).toBe('\u22121,500\u00a0t');
    expect(signedAmount(123456789, 'cents')).toBe('+S$1,234,567.89');
  });

  it('shows balances in their unit', () => {
    expect(balanceText(123450, 'cents')).toBe('S$1,234.50');
    expect(balanceText(12, 'tons')).toBe('12\u00a0t');
  });

  it('colours money in green, money out neutral', () => {
    expect(amountDirection(1)).toBe('in');
    expect(amountDirection(-1)).toBe('out');
    expect(amountDirection(0)).toBe('none');
  });
});
