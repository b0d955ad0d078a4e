// The holder-name rule shared by the card form and the server (docs/decisions/0027-holder-names.md).
import { describe, expect, it } from 'vitest';
import { sameName } from '../../src/shared/schemas/wallet';

describe('sameName', () => {
  it.each([
    ['Wei Ming Tan', 'TAN WEI MING'],
    ['Wei Ming Tan', 'Tan Wei-Ming'],
    ['Wei Ming Tan', '  tan,  wei   ming '],
    ['Ｗｅｉ Ming Tan', 'tan wei ming'], // full-width letters (NFKC)
    ['Ravi s/o Kumar', 'RAVI S/O KUMAR'],
  ])('%s matches %s', (a, b) => {
    expect(sameName(a, b)).toBe(true);
    expect(sameName(b, a)).toBe(true);
  });

  it.each([
    ['Wei Ming Tan', 'Tan Ming'],
    ['Wei Ming Tan', 'David Tan Wei Ming'],
    ['Wei Ming Tan', 'Tan Tan Wei Ming'],
    ['Wei Ming Tan', 'WeiMing Tan'],
    ['', ''],
    [' - ', ','],
  ])('%s does not match %s', (a, b) => {
    expect(sameName(a, b)).toBe(false);
  });
});
