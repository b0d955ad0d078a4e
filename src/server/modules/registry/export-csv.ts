import { parse } from 'csv-parse/sync';

// A registry account's CSV export (holdings and retirements), read into one row per block: its serial range
// as the registry writes it, the quantity the export states, whether the units are still held or were
// retired/cancelled, and for a retirement the registry's reference and date. Registries write these files
// for spreadsheets: a header row, fields quoted when they hold commas, often a byte-order mark and CRLF line
// ends, numbers with thousands separators ("77,453"). Columns are found by their header names, in any order;
// each field below accepts the names the registries' public exports use (Verra's "Serial Number",
// "Quantity Issued", "Vintage Start", "Vintage End", "Retirement/Cancellation Date", "Retirement Details";
// the other registries' "Serial Numbers", "Quantity", "Status", "Retirement Reason"...).

export interface RegistryExportRow {
  /** The file's line (1: the header) the row was read from, for messages. */
  line: number;
  serial_range: string;
  quantity: number;
  status: 'held' | 'retired';
  reference?: string;
  /** YYYY-MM-DD when the export writes a date Canopy reads (ISO, or DD/MM/YYYY as Verra writes it). */
  date?: string;
}

export class RegistryExportError extends Error {}

const COLUMNS = {
  serial_range: ['serial number', 'serial numbers', 'serial range', 'serial', 'vcu serial number', 'certificates', 'certificate id'],
  quantity: ['quantity issued', 'quantity', 'quantity of units', 'quantity of credits', 'number of credits', 'credits', 'volume', 'total quantity'],
  status: ['status', 'unit status', 'credit status'],
  date: ['retirement/cancellation date', 'retirement date', 'cancellation date', 'date of retirement', 'retired on'],
  reference: ['retirement reference', 'cancellation reference', 'retirement id', 'transaction id', 'reference'],
} as const;

/** Status words that mean the units have left the account for good. */
const RETIRED = /^(retired|cancelled|canceled|retirement|cancellation)$/i;
const HELD = /^(active|held|issued|available|in account|)$/i;

const squash = (h: string) => h.replace(/^\uFEFF/, '').trim().replace(/\s+/g, ' ').toLowerCase();

function isoDate(text: string): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return undefined;
}

/** Reads an export; refuses, naming the line and the column, a file Canopy cannot read as one. */
export function parseRegistryExport(text: string): RegistryExportRow[] {
  let rows: string[][];
  try {
    rows = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
  } catch (err) {
    throw new RegistryExportError(`not a readable CSV file: ${(err as Error).message}`);
  }
  const header = rows[0];
  if (!header) throw new RegistryExportError('the file is empty');
  const names = header.map(squash);
  const column = (field: keyof typeof COLUMNS): number => {
    for (const name of COLUMNS[field]) {
      const i = names.indexOf(name);
      if (i >= 0) return i;
    }
    return -1;
  };
  const at = { serial_range: column('serial_range'), quantity: column('quantity'), status: column('status'), date: column('date'), reference: column('reference') };
  if (at.serial_range < 0) throw new RegistryExportError(`line 1: no serial number column (one of: ${COLUMNS.serial_range.join(', ')})`);
  if (at.quantity < 0) throw new RegistryExportError(`line 1: no quantity column (one of: ${COLUMNS.quantity.join(', ')})`);
  const out: RegistryExportRow[] = [];
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]!;
    const cell = (c: number) => (c >= 0 ? (row[c] ?? '').trim() : '');
    if (row.every((c) => c.trim() === '')) continue;
    const line = i + 1;
    const serial = cell(at.serial_range);
    if (serial === '') throw new RegistryExportError(`line ${line}: serial number is empty`);
    const quantityText = cell(at.quantity).replace(/[,\s]/g, '');
    if (!/^\d{1,16}$/.test(quantityText) || !Number.isSafeInteger(Number(quantityText))) {
      throw new RegistryExportError(`line ${line}: quantity "${cell(at.quantity)}" is not a whole number`);
    }
    const statusText = cell(at.status);
    const dateText = cell(at.date);
    let status: RegistryExportRow['status'];
    if (RETIRED.test(statusText)) status = 'retired';
    else if (HELD.test(statusText)) status = dateText === '' ? 'held' : 'retired'; // Verra's files say it by the date alone
    else throw new RegistryExportError(`line ${line}: status "${statusText}" is neither held nor retired`);
    const date = dateText === '' ? undefined : isoDate(dateText);
    if (dateText !== '' && date === undefined) throw new RegistryExportError(`line ${line}: retirement date "${dateText}" is not a date (YYYY-MM-DD or DD/MM/YYYY)`);
    const reference = cell(at.reference);
    out.push({ line, serial_range: serial, quantity: Number(quantityText), status, ...(reference !== '' ? { reference } : {}), ...(date !== undefined ? { date } : {}) });
  }
  return out;
}
