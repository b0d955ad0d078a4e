import { parse } from 'csv-parse/sync';
import { amountCents, isoDate, lineIdentity, StatementError, type ParsedStatement, type StatementLine } from './line';

// DBS IDEAL account activity export: some account lines first, then the header
// `Date, Value Date, Transaction Description 1, Transaction Description 2, Debit, Credit, Running Balance`
// and one row per transaction; amounts like `1,353.79`, empty where not used. No transaction id: a line's
// identity is the hash of its date, descriptions, amount and running balance.

const HEADER = ['date', 'value date', 'transaction description 1', 'transaction description 2', 'debit', 'credit', 'running balance'];

export function parseDbsCsv(text: string): ParsedStatement {
  let rows: string[][];
  try {
    rows = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    throw new StatementError(`not a readable CSV file: ${(err as Error).message}`);
  }
  const headerAt = rows.findIndex((r) => r.length >= HEADER.length && HEADER.every((h, i) => r[i]!.toLowerCase() === h));
  if (headerAt < 0) throw new StatementError(`no DBS header row (${HEADER.join(', ')}) found`);
  const lines: StatementLine[] = [];
  let debits = 0;
  for (let i = headerAt + 1; i < rows.length; i++) {
    const row = rows[i]!;
    const where = `row ${i + 1}`;
    if (row.every((c) => c === '')) continue;
    if (row.length < HEADER.length) throw new StatementError(`${where}: ${row.length} columns, ${HEADER.length} expected`);
    const [date, , d1, d2, debit, credit, balance] = row as [string, string, string, string, string, string, string];
    const booked = isoDate(date);
    if (!booked) throw new StatementError(`${where}: "${date}" is not a date`);
    const bal = balance === '' ? null : amountCents(balance);
    if (balance !== '' && bal === null) throw new StatementError(`${where}: running balance "${balance}" is not an amount`);
    if (credit === '') {
      if (debit === '' || amountCents(debit) === null) throw new StatementError(`${where}: neither a debit nor a credit amount`);
      debits++;
      continue;
    }
    const amount = amountCents(credit);
    if (amount === null || amount <= 0) throw new StatementError(`${where}: credit "${credit}" is not an amount`);
    if (debit !== '' && amountCents(debit) !== 0) throw new StatementError(`${where}: both a debit ("${debit}") and a credit ("${credit}")`);
    lines.push({
      identity: lineIdentity('dbs-csv', '', { booked_on: booked, descriptions: [d1, d2], amount, balance: bal }),
      booked_on: booked,
      description: `${d1} ${d2}`.trim(),
      amount,
      balance: bal,
      bank_ref: '',
    });
  }
  return { format: 'dbs-csv', lines, debits };
}
