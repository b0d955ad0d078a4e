// Public sample statements of other parser projects (tests/fixtures/statements/public/, sources and licences
// in its README.md), each read by our MT940 / camt.053 reader and compared with what that project's own
// tests say the file holds: credits and debits, count and total in cents. Files whose own balances do not
// add up are refused by the import; the comparison then reads them with the balance check off, and the
// refusal is checked to name the statement.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCamt053 } from '../../src/server/modules/wallet/statements/camt053';
import { readMt940 } from '../../src/server/modules/wallet/statements/mt940';
import type { StatementRead } from '../../src/server/modules/wallet/statements/line';
import { REPO_ROOT } from '../helpers/server';

const ROOT = path.join(REPO_ROOT, 'tests/fixtures/statements/public');

interface Counts {
  credits: number;
  credit_cents: number;
  debits: number;
  debit_cents: number;
}

interface Expected extends Counts {
  source: string;
  /** Our reader refuses the file whole: the message it gives. */
  refused?: string;
  /** Where we read differently from that project, what we read and why. */
  ours?: Counts & { why: string };
}

const files = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => fs.readdirSync(path.join(ROOT, d.name)).filter((f) => /\.(sta|xml)$/.test(f)).map((f) => path.join(d.name, f)));

function read(file: string, balances: boolean): StatementRead[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return file.endsWith('.xml') ? readCamt053(text, { balances }) : readMt940(text, { balances });
}

/** Credits and debits as the other projects count them: python mt940 signs only D negative, so a reversal
 *  (RC, RD) counts with the credits there; camt.053 parsers go by CdtDbtInd. */
function counts(file: string, statements: StatementRead[]): Counts {
  const entries = statements.flatMap((s) => s.entries);
  const isCredit = file.endsWith('.sta') ? (e: (typeof entries)[number]) => e.credit || e.reversal : (e: (typeof entries)[number]) => e.credit;
  const credits = entries.filter(isCredit);
  const debits = entries.filter((e) => !isCredit(e));
  const sum = (es: typeof entries) => es.reduce((s, e) => s + e.amount, 0);
  return { credits: credits.length, credit_cents: sum(credits), debits: debits.length, debit_cents: sum(debits) };
}

describe('public sample statements read as their own projects read them', () => {
  it('has a representative corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files)('%s', (file) => {
    const expected = JSON.parse(fs.readFileSync(path.join(ROOT, file.replace(/\.(sta|xml)$/, '.json')), 'utf8')) as Expected;
    const theirs = { credits: expected.credits, credit_cents: expected.credit_cents, debits: expected.debits, debit_cents: expected.debit_cents };
    const { why: _why, ...ours } = expected.ours ?? { why: '', ...theirs };
    if (expected.refused) {
      expect(() => read(file, true)).toThrow(expected.refused);
      expect(counts(file, read(file, false))).toEqual(ours);
    } else {
      expect(counts(file, read(file, true))).toEqual(ours);
    }
  });
});
