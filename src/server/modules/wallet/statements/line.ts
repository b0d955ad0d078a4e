import { createHash } from 'node:crypto';

// What every statement parser gives: the credit lines of a bank statement (debits are not ours to match),
// each with an identity that is the same however often, and in whichever overlapping file, it is read.

export const STATEMENT_FORMATS = ['dbs-csv', 'mt940', 'camt053'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface StatementLine {
  /** The bank's transaction id ("bank:id:<id>", whatever the format), else a hash of date, descriptions, amount and running balance. */
  identity: string;
  /** Booking date, YYYY-MM-DD. */
  booked_on: string;
  /** The descriptions joined by a space: where the payer's reference is found. */
  description: string;
  /** Cents, > 0. */
  amount: number;
  /** The running balance after the line in cents, when the statement has one. */
  balance: number | null;
  bank_ref: string;
  /** One entry for several transactions (camt.053 batch booking): left unmatched for an operator. */
  batch?: boolean;
}

export interface ParsedStatement {
  format: StatementFormat;
  lines: StatementLine[];
  /** Debit lines read and left aside. */
  debits: number;
}

/** One booking as a statement file gives it, before it is a top-up credit or not: what the readers of the
 *  bank formats answer, for every currency, with the statement's balances checked. */
export interface StatementEntry {
  /** Where it is in the file, as an operator finds it: "line 12" (MT940), "entry 3" (camt.053). */
  at: string;
  /** Money in, or out; a reversal says which way the money moved, its `reversal` that it undoes another. */
  credit: boolean;
  reversal: boolean;
  /** Cents, >= 0. */
  amount: number;
  currency: string;
  booked_on: string;
  bank_ref: string;
  /** The payer's texts, in the order the file gives them. */
  texts: string[];
  /** Read and left aside: a pending or information-only camt.053 entry (not money yet). */
  booked: boolean;
  /** Several payments booked as one (camt.053 batch) whose parts carry no amount. */
  batch: boolean;
  /** What identifies it beside its texts when it has no bank reference (camt.053 NtryRef). */
  extra: string[];
}

export interface StatementRead {
  /** 1-based position in the file. */
  index: number;
  /** The statement's own reference: MT940 :20:, camt.053 Stmt/Id. */
  id: string;
  currency: string;
  /** Signed cents, null when the statement does not give it. */
  opening: number | null;
  closing: number | null;
  entries: StatementEntry[];
}

/** "statement 2 (STMT-0002)": how a refusal names a statement. */
export function statementName(index: number, id: string): string {
  return `statement ${index}${id ? ` (${id})` : ''}`;
}

/** Decimal text in cents without floating point: "60,00" / "300," (MT940, `separators` ",.") or "8.850" /
 *  "0.2" (camt.053, "."; a comma there is never a decimal mark). A third or later decimal must be zero
 *  (camt.053 allows five); a real fraction of a cent is refused, never rounded. */
export function decimalCents(text: string, separators: ',.' | '.'): { cents: number } | { error: string } {
  const t = text.trim();
  const m = (separators === '.' ? /^(\d+)(?:\.(\d*))?$/ : /^(\d+)(?:[.,](\d*))?$/).exec(t);
  if (!m) return { error: `"${t}" is not an amount` };
  const frac = m[2] ?? '';
  if (/[1-9]/.test(frac.slice(2))) return { error: `"${t}" has a fraction of a cent` };
  const cents = Number(m[1]) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? { cents } : { error: `"${t}" is too large` };
}

/** Runs a reader, its refusal then saying which format was read (an operator may have picked the wrong file). */
export function refusedAs<T>(format: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof StatementError) throw new StatementError(`${format}: ${err.message}`);
    throw err;
  }
}

/** Sum of signed entries: credits add, debits subtract. */
function movement(entries: readonly StatementEntry[]): number {
  return entries.reduce((sum, e) => sum + (e.booked ? (e.credit ? e.amount : -e.amount) : 0), 0);
}

/** Refuses a statement whose opening balance and entries do not give its closing balance. */
export function checkBalance(s: StatementRead, openingName: string, closingName: string): void {
  if (s.opening === null || s.closing === null) return;
  const expected = s.opening + movement(s.entries);
  if (expected === s.closing) return;
  throw new StatementError(
    `${statementName(s.index, s.id)} does not add up: opening balance ${openingName} ${centsText(s.opening)} ${s.currency} + its ${s.entries.filter((e) => e.booked).length} entries = ${centsText(expected)}, but the closing balance ${closingName} says ${centsText(s.closing)}; an entry is missing or misread`,
  );
}

/** -1234 -> "-12.34", for messages. */
export function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A statement that cannot be read: the import stops before writing anything. */
export class StatementError extends Error {}

export function lineIdentity(format: StatementFormat, bankRef: string, parts: { booked_on: string; descriptions: string[]; amount: number; balance: number | null }): string {
  // The bank's own id names the transaction whatever the file's format: the same payment read from an
  // MT940 and then from a camt.053 export is one line, credited once.
  if (bankRef) return `bank:id:${bankRef}`;
  // Without one: what the line says, in one spelling (case and runs of spaces differ between exports).
  const text = JSON.stringify([parts.booked_on, ...parts.descriptions.map((d) => d.trim().replace(/\s+/g, ' ').toUpperCase()), parts.amount, parts.balance]);
  return `${format}:sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** "1,353.79" / "1353.79" / "1353.7" / "1353" -> cents; null when it is not an amount. */
export function amountCents(text: string): number | null {
  const t = text.trim();
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.replace(/,/g, '').split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "02 Jan 2026", "02-Jan-2026", "02/01/2026", "2026-01-02" -> "2026-01-02"; null otherwise. */
export function isoDate(text: string): string | null {
  const t = text.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})[ -]([A-Za-z]{3})[ -](\d{4})$/.exec(t))) {
    m = MONTHS.indexOf(match[2]!.toLowerCase()) + 1;
    [y, d] = [Number(match[3]), Number(match[1])];
  } else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t))) [y, m, d] = [Number(match[3]), Number(match[2]), Number(match[1])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}
