import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildPayNowPayload,
  crc16,
  generateReference,
  normalizeReference,
  parsePayNowPayload,
  parseTlv,
  payloadCrcOk,
  REFERENCE_PATTERN,
  sgtYmd,
  tlv,
} from '../../src/shared/paynow';

// A PayNow payload published as a worked example, reproduced from its inputs.
const PUBLISHED =
  '00020101021226490009SG.PAYNOW010120210201723769K0301004082022123152040000530370254041.995802SG5921Lyte Ventures Pte Ltd6009Singapore62170113LP2-INVOICE01630460B8';
// Any instant on 31 Dec 2022 in Singapore time: 23:59 SGT is 15:59 UTC.
const EXPIRY = Date.UTC(2022, 11, 31, 15, 59);

describe('CRC-16/CCITT-FALSE', () => {
  it('is 29B1 for "123456789" (the check value of the algorithm)', () => {
    expect(crc16('123456789')).toBe('29B1');
  });
  it('is four upper-case hex digits, zero-padded', () => {
    for (const s of ['', 'a', 'PayNow', '0002010102']) expect(crc16(s)).toMatch(/^[0-9A-F]{4}$/);
    expect(crc16('')).toBe('FFFF');
  });
  it('checks the published payload', () => {
    expect(payloadCrcOk(PUBLISHED)).toBe(true);
    expect(payloadCrcOk(PUBLISHED.replace('1.99', '1.98'))).toBe(false);
  });
});

describe('TLV', () => {
  it('writes id, two-digit length and value, and reads it back', () => {
    expect(tlv('59', 'Lyte Ventures Pte Ltd')).toBe('5921Lyte Ventures Pte Ltd');
    expect(tlv('03', '0')).toBe('03010');
    expect(parseTlv('000201' + '5802SG')).toEqual([
      { id: '00', value: '01' },
      { id: '58', value: 'SG' },
    ]);
  });
  it('refuses truncated or malformed strings and bad values', () => {
    expect(() => parseTlv('0005AB')).toThrow(/truncated/);
    expect(() => parseTlv('0X02AB')).toThrow(/malformed/);
    expect(() => tlv('1', 'x')).toThrow();
    expect(() => tlv('01', 'x'.repeat(100))).toThrow();
    expect(() => tlv('01', 'é')).toThrow();
  });
});

describe('buildPayNowPayload', () => {
  const input = { uen: '201723769K', name: 'Lyte Ventures Pte Ltd', amountCents: 199, reference: 'LP2-INVOICE01', expiry: EXPIRY };

  it('reproduces the published payload exactly', () => {
    expect(buildPayNowPayload(input)).toBe(PUBLISHED);
  });

  it('matches the published payload field by field', () => {
    const top = parseTlv(PUBLISHED);
    expect(top.map((f) => f.id)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    const ours = parseTlv(buildPayNowPayload(input));
    expect(ours).toEqual(top);
    const byId = Object.fromEntries(top.map((f) => [f.id, f.value]));
    expect(byId['00']).toBe('01');
    expect(byId['01']).toBe('12'); // dynamic QR
    expect(parseTlv(byId['26']!)).toEqual([
      { id: '00', value: 'SG.PAYNOW' },
      { id: '01', value: '2' }, // proxy type: UEN
      { id: '02', value: '201723769K' },
      { id: '03', value: '0' }, // amount not editable
      { id: '04', value: '20221231' }, // expiry YYYYMMDD
    ]);
    expect(byId['52']).toBe('0000');
    expect(byId['53']).toBe('702');
    expect(byId['54']).toBe('1.99');
    expect(byId['58']).toBe('SG');
    expect(byId['59']).toBe('Lyte Ventures Pte Ltd');
    expect(byId['60']).toBe('Singapore');
    expect(parseTlv(byId['62']!)).toEqual([{ id: '01', value: 'LP2-INVOICE01' }]);
    expect(byId['63']).toBe('60B8');
  });

  it('writes the expiry day in Singapore time', () => {
    // 16:30 UTC on 31 Dec is 00:30 SGT on 1 Jan.
    expect(sgtYmd(Date.UTC(2022, 11, 31, 16, 30))).toBe('20230101');
    expect(sgtYmd(Date.UTC(2022, 11, 31, 15, 59))).toBe('20221231');
  });

  it('writes amounts with two decimals', () => {
    const amountOf = (amountCents: number) => parseTlv(buildPayNowPayload({ ...input, amountCents })).find((f) => f.id === '54')!.value;
    expect(amountOf(1)).toBe('0.01');
    expect(amountOf(1000)).toBe('10.00');
    expect(amountOf(135379)).toBe('1353.79');
  });

  it('refuses bad inputs', () => {
    expect(() => buildPayNowPayload({ ...input, name: 'x'.repeat(26) })).toThrow();
    expect(() => buildPayNowPayload({ ...input, reference: 'lower' })).toThrow();
    expect(() => buildPayNowPayload({ ...input, amountCents: 0 })).toThrow();
    expect(() => buildPayNowPayload({ ...input, amountCents: 1.5 })).toThrow();
    expect(() => buildPayNowPayload({ ...input, uen: 'bad uen' })).toThrow();
  });

  it('property: every payload parses back into the same fields and its CRC checks', () => {
    const upperDigit = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));
    const uen = fc.array(upperDigit, { minLength: 9, maxLength: 10 }).map((a) => a.join(''));
    const name = fc.string({ minLength: 1, maxLength: 25 }).filter((s) => /^[\x20-\x7e]+$/.test(s));
    const reference = fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'.split('')), { minLength: 1, maxLength: 25 }).map((a) => a.join(''));
    const amountCents = fc.integer({ min: 1, max: 99_999_999_99 });
    const expiry = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2099, 0, 1) });
    fc.assert(
      fc.property(uen, name, reference, amountCents, expiry, (u, n, r, a, e) => {
        const payload = buildPayNowPayload({ uen: u, name: n, amountCents: a, reference: r, expiry: e });
        expect(payloadCrcOk(payload)).toBe(true);
        const back = parsePayNowPayload(payload);
        expect(back).toMatchObject({ uen: u, name: n, amountCents: a, reference: r, expiry: sgtYmd(e), editable: false, currency: '702', country: 'SG', city: 'Singapore' });
      }),
      { numRuns: 500 },
    );
  });

  it('parse refuses a payload with a wrong CRC', () => {
    expect(() => parsePayNowPayload(PUBLISHED.slice(0, -4) + '0000')).toThrow(/CRC/);
  });
});

describe('generateReference', () => {
  it('is well formed: at most 25 characters from A-Z, 0-9 and -', () => {
    for (let i = 0; i < 1000; i++) {
      const r = generateReference();
      expect(r).toMatch(REFERENCE_PATTERN);
      expect(r.length).toBeLessThanOrEqual(25);
      expect(normalizeReference(r)).toBe(r);
    }
  });
  it('is unique over many draws', () => {
    const seen = new Set(Array.from({ length: 20_000 }, () => generateReference()));
    expect(seen.size).toBe(20_000);
  });
  it('normalizes for matching: upper case, spaces dropped', () => {
    expect(normalizeReference(' cnp abc 12 ')).toBe('CNPABC12');
  });
});
