// The MT940 and camt.053 readers on statements shaped as Singapore banks export them
// (tests/fixtures/statements/sg/: SGD, account numbers without IBAN, PayNow references in :86: and RmtInf),
// and their refusals: each names the statement and the line or entry and says what is wrong, never an
// internal error text, however the file is cut.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatement, StatementError } from '../../src/server/modules/wallet/statements';
import { decimalCents } from '../../src/server/modules/wallet/statements/line';
import { readMt940 } from '../../src/server/modules/wallet/statements/mt940';
import { referencesIn } from '../../src/shared/paynow';
import { REPO_ROOT } from '../helpers/server';

const SG = path.join(REPO_ROOT, 'tests/fixtures/statements/sg');
const PUBLIC = path.join(REPO_ROOT, 'tests/fixtures/statements/public');
const sample = (name: string) => fs.readFileSync(path.join(SG, name), 'utf8');

/** The refusal message of parsing `text`; fails the test when it is read or fails otherwise. */
function refusal(text: string): string {
  try {
    parseStatement(text);
  } catch (err) {
    expect(err).toBeInstanceOf(StatementError);
    return (err as Error).message;
  }
  throw new Error('the statement was read, a refusal was expected');
}

describe('decimal amounts in cents', () => {
  it('reads comma and point decimals, extra zero decimals, no decimals', () => {
    expect(decimalCents('60,00', ',.')).toEqual({ cents: 6000 });
    expect(decimalCents('300,', ',.')).toEqual({ cents: 30000 });
    expect(decimalCents('1250,5', ',.')).toEqual({ cents: 125050 });
    expect(decimalCents('8.850', '.')).toEqual({ cents: 885 });
    expect(decimalCents('88.80000', '.')).toEqual({ cents: 8880 });
    expect(decimalCents('0', '.')).toEqual({ cents: 0 });
    // 0.1 + 0.2 in floating point is not 0.3; the sum of cents is.
    expect(['0.10', '0.20'].map((a) => (decimalCents(a, '.') as { cents: number }).cents).reduce((s, c) => s + c, 0)).toBe(30);
  });

  it('refuses a fraction of a cent, a comma in camt.053 and what is not a number', () => {
    expect(decimalCents('8.855', '.')).toEqual({ error: '"8.855" has a fraction of a cent' });
    expect(decimalCents('12,50', '.')).toEqual({ error: '"12,50" is not an amount' });
    expect(decimalCents('1.2.3', ',.')).toEqual({ error: '"1.2.3" is not an amount' });
    expect(decimalCents('', ',.')).toMatchObject({ error: expect.stringMatching(/not an amount/) });
  });
});

describe('MT940 as DBS and OCBC export it', () => {
  it('reads a SWIFT envelope with two statements, wrapped :86: lines and no final newline', () => {
    const text = sample('dbs-multi.mt940');
    expect(text.endsWith('\n')).toBe(false);
    const statements = readMt940(text);
    expect(statements.map((s) => [s.id, s.currency, s.opening, s.closing, s.entries.length])).toEqual([
      ['DBS261124001', 'SGD', 1_000_000, 1_128_050, 3],
      ['DBS261125001', 'SGD', 1_128_050, 1_131_050, 1],
    ]);
    const parsed = parseStatement(text);
    expect(parsed).toMatchObject({ format: 'mt940', debits: 1 });
    expect(parsed.lines.map((l) => [l.identity, l.booked_on, l.amount, referencesIn(l.description)])).toEqual([
      ['bank:id:FT26328A0001', '2026-11-24', 5000, ['CNPSGDBSWRAPZZZ']],
      ['bank:id:FT26328A0002', '2026-11-24', 125_050, ['CNPSGDBSTWQZZZZ']],
      ['bank:id:FT26329A0001', '2026-11-25', 3000, ['CNPSGDBSTH3ZZZZ']],
    ]);
  });

  it('reads the same lines whatever the line ends', () => {
    const text = sample('dbs-multi.mt940');
    const lf = parseStatement(text);
    expect(parseStatement(text.replace(/\n/g, '\r\n'))).toEqual(lf);
    expect(parseStatement(`${text.replace(/\n/g, '\r')}\r\n`)).toEqual(lf);
    expect(parseStatement(`\uFEFF${text}\n\n`)).toEqual(lf);
  });

  it('reads header lines, :25P:, :28: without sequence, :13D:, :34F:, :NS:, :60M:/:62M:, :90C:/:90D:, funds codes and reversals', () => {
    const text = sample('ocbc.mt940');
    expect(text).toMatch(/\r\n/);
    const [statement] = readMt940(text);
    expect(statement).toMatchObject({ id: 'OCBC2611240001', opening: 250_000, closing: 262_384 });
    expect(statement!.entries.map((e) => [e.credit, e.reversal, e.amount, e.booked_on])).toEqual([
      [true, false, 10_000, '2026-11-23'],
      [true, true, 1500, '2026-11-24'],
      [true, false, 885, '2026-11-24'],
      [false, false, 1, '2026-11-24'],
    ]);
    const parsed = parseStatement(text);
    // The returned GIRO debit (RD) is money back, not a payment: left aside with the charge.
    expect(parsed.debits).toBe(2);
    expect(parsed.lines.map((l) => [l.bank_ref, l.amount])).toEqual([
      ['OC26328000001', 10_000],
      ['OC26328000003', 885],
    ]);
    expect(referencesIn(parsed.lines[0]!.description)).toEqual(['CNPQCBCMT94ZZZZ']);
    expect(parsed.lines[0]!.description).toContain('PAYNOW TRANSFER');
  });
});

describe('camt.053 as UOB and OCBC export it', () => {
  it('reads several statements, batch entries split by their amounts, three and five decimals, pending entries left aside', () => {
    const parsed = parseStatement(sample('uob.camt053.xml'));
    expect(parsed).toMatchObject({ format: 'camt053', debits: 2 });
    expect(parsed.lines.map((l) => [l.identity, l.booked_on, l.amount, l.batch, referencesIn(l.description)])).toEqual([
      ['bank:id:UOB-26328-0001/1', '2026-11-24', 10_000, false, ['CNPUQBCAMTZZZZZ']],
      ['bank:id:UOB-26328-0001/2', '2026-11-24', 5000, false, ['CNPUQBSPRTTWZZZ']],
      // Parts without their amounts: one line an operator splits.
      ['bank:id:UOB-26328-0004', '2026-11-24', 7000, true, []],
      ['bank:id:UOB-26329-0001', '2026-11-25', 2000, false, ['CNPUQBSTRDZZZZZ']],
    ]);
    const ocbc = parseStatement(sample('ocbc.camt053.xml'));
    expect(ocbc.lines.map((l) => [l.amount, referencesIn(l.description)])).toEqual([[8880, ['CNPQCBCAMT23ZZZ']]]);
  });

  it('reads the namespaces of versions 001.02 to 001.13 alike', () => {
    const text = sample('ocbc.camt053.xml');
    for (let v = 2; v <= 13; v++) {
      const ns = `camt.053.001.${String(v).padStart(2, '0')}`;
      expect(parseStatement(text.replace('camt.053.001.13', ns)).lines.map((l) => l.amount), ns).toEqual([8880]);
    }
  });
});

describe('refusals name the statement and the line, and say what is wrong', () => {
  const dbs = sample('dbs-multi.mt940');
  const uob = sample('uob.camt053.xml');

  it('an MT940 statement that does not add up', () => {
    expect(refusal(dbs.replace(':62F:C261125SGD11310,50', ':62F:C261125SGD11310,60'))).toBe(
      'MT940: statement 2 (DBS261125001) does not add up: opening balance :60F: 11280.50 SGD + its 1 entries = 11310.50, but the closing balance :62F: says 11310.60; an entry is missing or misread',
    );
  });

  it('a garbled MT940 amount', () => {
    expect(refusal(dbs.replace(':61:261124C1250,5NTRF', ':61:261124C125O,5NTRF'))).toBe(
      'MT940: statement 1 (DBS261124001), line 9: transaction :61: "261124C125O,5NTRFPAYNOW//FT26328A0002": "125O,5" is not an amount',
    );
    expect(refusal(dbs.replace(':61:261124C1250,5NTRF', ':61:261124C12,50,5NTRF'))).toMatch(/^MT940: statement 1 \(DBS261124001\), line 9: .*"12,50,5" is not an amount$/);
    expect(refusal(dbs.replace(':60F:C261123SGD10000,00', ':60F:C261123SGD10.000,00'))).toMatch(/^MT940: statement 1 \(DBS261124001\), line 5: balance :60F: "10.000,00" is not an amount$/);
    expect(refusal(dbs.replace(':61:2611241124C50,00', ':61:2613241124C50,00'))).toMatch(/line 6: .*"261324" is not a date$/);
  });

  it('a cut-short MT940 file', () => {
    const cut = dbs.slice(0, dbs.indexOf(':62F:C261125'));
    expect(refusal(cut)).toBe('MT940: statement 2 (DBS261125001): no closing balance (:62F: or :62M:) after line 28; the file looks cut short');
  });

  it('an MT940 statement in another currency', () => {
    expect(refusal(dbs.replace(/SGD/g, 'EUR'))).toBe('MT940: statement 1 (DBS261124001) is in EUR, not SGD');
  });

  it('a camt.053 statement that does not add up, a fraction of a cent, parts that do not add up, a cut-short file', () => {
    expect(refusal(uob.replace('<Amt Ccy="SGD">1214.50</Amt>', '<Amt Ccy="SGD">1214.05</Amt>'))).toBe(
      'camt.053: statement 2 (UOB-3123456789-20261125) does not add up: opening balance PRCD 1194.50 SGD + its 1 entries = 1214.50, but the closing balance CLBD says 1214.05; an entry is missing or misread',
    );
    expect(refusal(uob.replace('<Amt Ccy="SGD">100.00</Amt>', '<Amt Ccy="SGD">100.005</Amt>'))).toBe(
      'camt.053: statement 1 (UOB-3123456789-20261124), entry 1 (NtryRef 1), transaction 1: amount "100.005" has a fraction of a cent',
    );
    expect(refusal(uob.replace('<Amt Ccy="SGD">100.00</Amt>', '<Amt Ccy="SGD">90.00</Amt>'))).toBe(
      'camt.053: statement 1 (UOB-3123456789-20261124), entry 1 (NtryRef 1): its 2 transactions add up to 140.00, the entry says 150.00',
    );
    expect(refusal(uob.replace('<Amt Ccy="SGD">25.50</Amt>', '<Amt Ccy="SGD">25,50</Amt>'))).toBe(
      'camt.053: statement 1 (UOB-3123456789-20261124), entry 2 (NtryRef 2): amount "25,50" is not an amount',
    );
    expect(refusal(uob.slice(0, uob.indexOf('<Ntry>', uob.indexOf('<NtryRef>4'))))).toMatch(/^camt.053: not well-formed XML: .* \(line \d+\)$/);
  });

  it('whatever line a file is cut at, it is read or refused with a StatementError, never an internal error', () => {
    const texts = [
      ...fs.readdirSync(SG).map((f) => sample(f)),
      ...['wolph-mt940/betterplace-sepa_mt9401.sta', 'wolph-mt940/cmxl-mt940.sta', 'genkgo-camt/camt053.v4.xml'].map((f) => fs.readFileSync(path.join(PUBLIC, f), 'utf8')),
    ];
    let refused = 0;
    for (const text of texts) {
      const lines = text.split('\n');
      for (let n = 1; n < lines.length; n++) {
        const cut = lines.slice(0, n).join('\n');
        try {
          parseStatement(cut);
        } catch (err) {
          expect(err, cut.slice(-200)).toBeInstanceOf(StatementError);
          expect((err as Error).message).not.toMatch(/undefined|null|Cannot read|NaN/);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
  });
});
