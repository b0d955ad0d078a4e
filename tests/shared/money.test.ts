// Money is integer cents (SGD), shown as S$1,234.50 (docs/product.md#units-time-and-money).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatSgd, parseSgdToCents } from '../../src/shared/money';

describe('formatSgd', () => {
  it.each([
    [0, 'S$0.00'],
    [1, 'S$0.01'],
    [10, 'S$0.10'],
    [99, 'S$0.99'],
    [100, 'S$1.00'],
    [123450, 'S$1,234.50'],
    [100000000, 'S$1,000,000.00'],
    [-1, '-S$0.01'],
    [-123450, '-S$1,234.50'],
    [Number.MAX_SAFE_INTEGER, 'S$90,071,992,547,409.91'],
  ])('%i cents -> %s', (cents, text) => {
    expect(formatSgd(cents)).toBe(text);
  });

  it('refuses anything that is not whole cents', () => {
    for (const bad of [0.5, 1.005, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1]) expect(() => formatSgd(bad)).toThrow(RangeError);
  });

  it('does not depend on the process locale', () => {
    expect(formatSgd(123456789)).toBe('S$1,234,567.89');
  });
});

describe('parseSgdToCents', () => {
  it.each([
    ['0', 0],
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.05', 1205],
    ['0.01', 1],
    ['.5', null],
    ['1,234.50', 123450],
    [' 1 234.50 ', 123450],
    ['S$1,234.50', 123450],
    ['$7', 700],
    ['s$7', 700],
    ['999999999.99', 99999999999],
    ['1000000000', null],
    ['12.345', null],
    ['12.', null],
    ['-5', null],
    ['+5', null],
    ['1e3', null],
    ['abc', null],
    ['', null],
    ['S$', null],
    ['0x10', null],
    ['１２', null],
  ])('%j -> %j', (text, cents) => {
    expect(parseSgdToCents(text)).toBe(cents);
  });

  it('never goes through floats: 0.29 and 1.10 are exact', () => {
    expect(parseSgdToCents('0.29')).toBe(29);
    expect(parseSgdToCents('1.10')).toBe(110);
    expect(parseSgdToCents('4.35')).toBe(435);
  });

  it('round-trips with formatSgd for every non-negative amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (cents) => {
        expect(parseSgdToCents(formatSgd(cents))).toBe(cents);
      }),
      { numRuns: 500 },
    );
  });

  it('answers an integer or null for any input', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = parseSgdToCents(text);
        expect(out === null || (Number.isSafeInteger(out) && out >= 0)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
