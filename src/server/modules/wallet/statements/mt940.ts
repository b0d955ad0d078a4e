import mt940 from 'mt940js';
import { lineIdentity, StatementError, type ParsedStatement, type StatementLine } from './line';

// SWIFT MT940 (mt940js): tag 61 is the transaction (date, C/D mark, amount, bank reference after "//"),
// tag 86 its details, where the payer's reference is. The bank reference is the identity when present.

export function parseMt940(text: string): ParsedStatement {
  let statements;
  try {
    statements = new mt940.Parser().parse(text.replace(/\r\n/g, '\n'));
  } catch (err) {
    throw new StatementError(`not a readable MT940 file: ${(err as Error).message}`);
  }
  if (statements.length === 0) throw new StatementError('no MT940 statement found');
  const lines: StatementLine[] = [];
  let debits = 0;
  for (const s of statements) {
    if (s.currency !== 'SGD') throw new StatementError(`statement ${s.transactionReference} is in ${s.currency}, not SGD`);
    for (const t of s.transactions) {
      const amount = Math.round(t.amount * 100);
      if (amount <= 0 || t.isReversal) {
        debits++;
        continue;
      }
      const booked = t.date.toISOString().slice(0, 10);
      const description = [t.reference, t.details, t.extraDetails ?? ''].filter((x) => x && x !== 'NONREF').join(' ').replace(/\s+/g, ' ').trim();
      const bankRef = t.bankReference?.trim() ?? '';
      lines.push({
        identity: lineIdentity('mt940', bankRef, { booked_on: booked, descriptions: [t.reference, t.details], amount, balance: null }),
        booked_on: booked,
        description,
        amount,
        balance: null,
        bank_ref: bankRef,
      });
    }
  }
  return { format: 'mt940', lines, debits };
}
