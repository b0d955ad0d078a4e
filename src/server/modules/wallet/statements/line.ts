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
