import { parseCamt053 } from './camt053';
import { parseDbsCsv } from './dbs-csv';
import { parseMt940 } from './mt940';
import { StatementError, type ParsedStatement, type StatementFormat } from './line';

export { STATEMENT_FORMATS, StatementError, type ParsedStatement, type StatementFormat } from './line';

/** The format of a file by its content: XML camt.053, MT940 tags, else the DBS CSV layout. */
function detectFormat(text: string): StatementFormat {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (t.startsWith('<')) return 'camt053';
  if (/^(\{1:|:20:)/m.test(t) && /^:61:/m.test(t)) return 'mt940';
  return 'dbs-csv';
}

export function parseStatement(text: string, format: StatementFormat = detectFormat(text)): ParsedStatement {
  if (text.trim() === '') throw new StatementError('the file is empty');
  switch (format) {
    case 'dbs-csv':
      return parseDbsCsv(text);
    case 'mt940':
      return parseMt940(text);
    case 'camt053':
      return parseCamt053(text);
  }
}
