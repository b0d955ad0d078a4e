// Registry serial ranges (docs/product.md#registry-inventory): each registry's public example read into its
// parts and written back, whole and as sub-ranges; counts; malformed ranges refused naming the field.
import { describe, expect, it } from 'vitest';
import { formatSerialRange, parseSerialRange, seriesKey, type RegistryName, type SerialRange } from '../../src/server/modules/registry/serials';

function ok(text: string, registry?: RegistryName): SerialRange {
  const r = parseSerialRange(text, registry);
  if (!r.ok) throw new Error(`${text}: ${r.field}: ${r.message}`);
  return r.range;
}

const EXAMPLES: { registry: RegistryName; text: string; first: number; last: number; quantity: number; vintage: string; sub: [number, number, string] }[] = [
  {
    registry: 'verra',
    text: '12082-384723093-384800545-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0',
    first: 384723093,
    last: 384800545,
    quantity: 77453,
    vintage: '2008',
    sub: [384723100, 384723141, '12082-384723100-384723141-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0'],
  },
  {
    // Cloverly's example of Verra's written form, zero-padded: the padding is kept in sub-ranges.
    registry: 'verra',
    text: '0001-000001-000100-VCS-VCU-003-VER-US-0003-01012020-31122020-1',
    first: 1,
    last: 100,
    quantity: 100,
    vintage: '2020',
    sub: [7, 42, '0001-000007-000042-VCS-VCU-003-VER-US-0003-01012020-31122020-1'],
  },
  {
    registry: 'car',
    text: 'CAR-1-US-293-1-120-CA-2006-102-1 to 29251',
    first: 1,
    last: 29251,
    quantity: 29251,
    vintage: '2006',
    sub: [500, 1499, 'CAR-1-US-293-1-120-CA-2006-102-500 to 1499'],
  },
  {
    registry: 'acr',
    text: 'ACR-US-192-2010-203-1-5000',
    first: 1,
    last: 5000,
    quantity: 5000,
    vintage: '2010',
    sub: [4001, 5000, 'ACR-US-192-2010-203-4001-5000'],
  },
  {
    registry: 'gold_standard',
    text: 'GS1-1-IN-GS2978-16-2019-19386-1-500',
    first: 1,
    last: 500,
    quantity: 500,
    vintage: '2019',
    sub: [1, 1, 'GS1-1-IN-GS2978-16-2019-19386-1-1'],
  },
  {
    registry: 'puro',
    text: 'PURO_PR_CORC100+_FI_577166_2020_055a3fbe-eabc-4535-b9cf-1028e7d18f89_1-100',
    first: 1,
    last: 100,
    quantity: 100,
    vintage: '2020',
    sub: [11, 20, 'PURO_PR_CORC100+_FI_577166_2020_055a3fbe-eabc-4535-b9cf-1028e7d18f89_11-20'],
  },
  {
    // Puro.earth's earlier form: the facility's 18-digit GSRN and a 12-digit sequence per unit.
    registry: 'puro',
    text: '643002406555908611000000000001-643002406555908611000000000100',
    first: 1,
    last: 100,
    quantity: 100,
    vintage: '',
    sub: [50, 59, '643002406555908611000000000050-643002406555908611000000000059'],
  },
];

describe('registry serial ranges', () => {
  for (const e of EXAMPLES) {
    it(`${e.registry}: ${e.text} reads, counts and writes back, whole and in part`, () => {
      const r = ok(e.text);
      expect(r).toMatchObject({ registry: e.registry, first: e.first, last: e.last, quantity: e.quantity, vintage: e.vintage });
      expect(ok(e.text, e.registry)).toEqual(r);
      expect(formatSerialRange(r, r.first, r.last)).toBe(e.text);
      const sub = formatSerialRange(r, e.sub[0], e.sub[1]);
      expect(sub).toBe(e.sub[2]);
      // A sub-range reads back as the same series with its own units and count.
      const back = ok(sub);
      expect(back).toMatchObject({ first: e.sub[0], last: e.sub[1], quantity: e.sub[1] - e.sub[0] + 1 });
      expect(seriesKey(back)).toBe(seriesKey(r));
      // Cut into two, the halves cover the whole.
      const mid = r.first + Math.floor((r.last - r.first) / 2);
      const halves = [ok(formatSerialRange(r, r.first, mid)), ...(mid < r.last ? [ok(formatSerialRange(r, mid + 1, r.last))] : [])];
      expect(halves.reduce((n, h) => n + h.quantity, 0)).toBe(r.quantity);
    });
  }

  it('the Verra parts are the ones its format names', () => {
    expect(ok(EXAMPLES[0]!.text).parts).toEqual({
      batch: '12082', program: 'VCS', unit: 'VCU', code: '304', credit_type: 'VER', country: 'CN', scope: '1', project: '191', vintage_start: '01012008', vintage_end: '31122008', flag: '0',
    });
    expect(ok('12082-1-10-VCS-VCU-304-VER-CN-1-191-01072008-30062009-0').vintage).toBe('2008-2009');
  });

  it('a sub-range outside the block is not written', () => {
    const r = ok(EXAMPLES[3]!.text);
    expect(() => formatSerialRange(r, 0, 10)).toThrow(RangeError);
    expect(() => formatSerialRange(r, 10, 5001)).toThrow(RangeError);
    expect(() => formatSerialRange(r, 20, 10)).toThrow(RangeError);
  });

  it('a stated quantity must equal the count the range spans', () => {
    expect(parseSerialRange('CAR-1-US-293-1-120-CA-2006-102-1 to 29251', 'car', { quantity: 29251 }).ok).toBe(true);
    // Cloverly's help page counts this CAR example as 29,250: the range is inclusive, so that is refused.
    expect(parseSerialRange('CAR-1-US-293-1-120-CA-2006-102-1 to 29251', 'car', { quantity: 29250 })).toMatchObject({ ok: false, field: 'quantity' });
    expect(parseSerialRange(EXAMPLES[0]!.text, undefined, { quantity: 77453 }).ok).toBe(true);
  });

  const MALFORMED: [string, RegistryName | undefined, string][] = [
    ['', undefined, 'serial_range'],
    ['VCS-2871-2022-000000001', undefined, 'serial_range'], // Canopy's own old serials are no registry's
    ['hello world', 'verra', 'serial_range'],
    ['12082-384800545-384723093-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0', undefined, 'last'], // first > last
    ['12082-0-10-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0', undefined, 'first'], // registries count from 1
    ['12082-1-99999999999999999-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0', undefined, 'last'], // past 2^53
    ['12082-1-10-VCS-VCU-304-VER-CN-1-191-31022008-31122008-0', undefined, 'vintage'], // 31 February
    ['12082-1-10-VCS-VCU-304-VER-CN-1-191-01012009-31122008-0', undefined, 'vintage'], // ends before it starts
    ['CAR-1-US-293-1-120-CA-2006-102-29251 to 1', undefined, 'last'],
    ['CAR-1-US-293-1-120-CA-2006-102-1 - 29251', undefined, 'serial_range'],
    ['ACR-US-192-2010-203-5000-1', undefined, 'last'],
    ['ACR-US-192-2010-203-1-5000', 'verra', 'registry'], // an ACR range named as Verra's
    ['GS1-1-IN-GS2978-16-1850-19386-1-500', undefined, 'vintage'],
    ['0001-000001-00100-VCS-VCU-003-VER-US-0003-01012020-31122020-1', undefined, 'last'], // widths differ
    ['643002406555908611000000000001-643002406555908612000000000100', undefined, 'last'], // two facilities
    ['PURO_PR_CORC100+_FI_577166_2020_055a3fbe_100-1', undefined, 'last'],
  ];
  for (const [text, registry, field] of MALFORMED) {
    it(`refuses "${text}"${registry ? ` as ${registry}` : ''}, naming ${field}`, () => {
      const r = parseSerialRange(text, registry);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.field).toBe(field);
        expect(r.message.length).toBeGreaterThan(10);
      }
    });
  }

  it('tolerates surrounding and doubled spaces in what was pasted', () => {
    expect(ok('  CAR-1-US-293-1-120-CA-2006-102-1   to 29251 ').quantity).toBe(29251);
  });
});
