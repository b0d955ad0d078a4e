import {
  checkBalance,
  decimalCents,
  lineIdentity,
  refusedAs,
  StatementError,
  statementName,
  type ParsedStatement,
  type StatementEntry,
  type StatementLine,
  type StatementRead,
} from './line';

// SWIFT MT940, read line by line (docs/decisions/0024-bank-statements.md). A tag starts a line (":61:",
// ":28C:", ":NS:"); lines without one continue the tag before them (wrapped :86: details, the second line of
// :61:). Each :20: starts a statement. What banks put around the tags is skipped: SWIFT blocks ({1:..}{2:..}
// {4:, "-}", {5:..}), header lines before the first tag, "-" between messages. Tags the import has no use
// for (:13D:, :34F:, :64:, :65:, :90C:, :NS:, ...) are read and ignored. Amounts are decimal text turned
// into cents; each statement must give its closing balance from its opening balance and its lines.

interface Tag {
  name: string;
  /** First line of the tag's content, then each continuation line. */
  lines: string[];
  /** 1-based line numbers in the file: where the tag starts, and its last line. */
  at: number;
  end: number;
}

const TAG = /^:(\d{2}[A-Z]?|NS):(.*)$/;

/** The tags of the file, grouped by statement (each :20: starts one; tags before any :20: start one too). */
function tagsOf(text: string): Tag[][] {
  const statements: Tag[][] = [];
  let current: Tag | null = null;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    let line = raw.replace(/\s+$/, '');
    if (line.startsWith('{')) {
      // SWIFT envelope: the text block {4: may start on the line of the headers; other blocks carry no tags.
      const body = line.indexOf('{4:');
      if (body < 0) return;
      line = line.slice(body + 3);
      current = null;
    }
    if (line === '') return;
    if (/^-\}?$/.test(line) || line.startsWith('-}')) {
      current = null;
      return;
    }
    const m = TAG.exec(line);
    if (m) {
      current = { name: m[1]!, lines: [m[2]!], at: i + 1, end: i + 1 };
      if (current.name === '20' || statements.length === 0) statements.push([]);
      statements[statements.length - 1]!.push(current);
    } else if (current) {
      current.lines.push(line);
      current.end = i + 1;
    }
  });
  return statements;
}

/** YYMMDD -> YYYY-MM-DD. A 29th or 30th of February (30/360 interest dates some banks print) is the
 *  month's last day; any other day the month does not have is refused. */
function swiftDate(yymmdd: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(yymmdd);
  if (!m) return null;
  const yy = Number(m[1]);
  const year = yy >= 80 ? 1900 + yy : 2000 + yy;
  const month = Number(m[2]);
  let day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last && month === 2 && day <= 30) day = last;
  if (day > last) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** :60F: / :62F: "C261122SGD10000,00" -> signed cents and currency. */
function balance(tag: Tag, where: string): { cents: number; currency: string } {
  const content = tag.lines[0]!.trim();
  // The currency is mandatory in SWIFT, yet some banks leave it out of intermediate balances.
  const m = /^([CD])(\d{6})([A-Z]{3})?(\d.*)$/.exec(content);
  if (!m || !swiftDate(m[2]!)) throw new StatementError(`${where}, line ${tag.at}: balance :${tag.name}: "${content}" is not a balance (C or D, date YYMMDD, currency, amount)`);
  const amount = decimalCents(m[4]!, ',.');
  if ('error' in amount) throw new StatementError(`${where}, line ${tag.at}: balance :${tag.name}: ${amount.error}`);
  return { cents: m[1] === 'D' ? -amount.cents : amount.cents, currency: m[3] ?? '' };
}

/** :61: value date, [entry date], mark (C, D, RC, RD), [funds code], amount, [type], [customer ref][//bank ref]. */
function entryOf(tag: Tag, currency: string, where: string): StatementEntry & { reference: string; supplementary: string } {
  // Some exports break the line after the debit/credit mark: the amount starts the next line.
  const broken = tag.lines.length > 1 && /^\d{6}(\d{4})?R?[CD][A-Z]?$/.test(tag.lines[0]!.trim());
  const first = broken ? tag.lines[0]!.trim() + tag.lines[1]!.trim() : tag.lines[0]!.trim();
  const fail = (what: string) => new StatementError(`${where}, line ${tag.at}: transaction :61: "${first.slice(0, 40)}": ${what}`);
  const m = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z]?)([0-9][0-9.,]*)(.*)$/.exec(first);
  if (!m) throw fail('not a statement line (date YYMMDD, C or D, amount)');
  const booked = swiftDate(m[1]!);
  if (!booked) throw fail(`"${m[1]}" is not a date`);
  const rest = m[6]!;
  // The amount ends where the transaction type (a letter and three letters or digits) begins.
  if (rest !== '' && !/^[A-Z][A-Z0-9 ]{3}/.test(rest)) {
    const type = /(?<=[\d,.])[A-Z][A-Z0-9]{3}/.exec(rest);
    throw fail(`"${m[5]}${rest.slice(0, type ? type.index : 10)}" is not an amount`);
  }
  const amount = decimalCents(m[5]!, ',.');
  if ('error' in amount) throw fail(amount.error);
  const refs = rest.slice(4);
  const split = refs.indexOf('//');
  const reference = (split < 0 ? refs : refs.slice(0, split)).trim();
  const mark = m[3]!;
  return {
    at: `line ${tag.at}`,
    credit: mark === 'C' || mark === 'RD',
    reversal: mark.startsWith('R'),
    amount: amount.cents,
    currency,
    booked_on: booked,
    bank_ref: split < 0 ? '' : refs.slice(split + 2).trim(),
    texts: [],
    booked: true,
    batch: false,
    extra: [],
    reference,
    supplementary: tag.lines.slice(broken ? 2 : 1).join('\n'),
  };
}

type Mt940Entry = ReturnType<typeof entryOf>;

function statementOf(tags: Tag[], index: number, balances: boolean): StatementRead & { entries: Mt940Entry[] } {
  const id = tags.find((t) => t.name === '20')?.lines[0]!.trim() ?? '';
  const where = statementName(index, id);
  const opening = tags.find((t) => t.name === '60F' || t.name === '60M');
  const closing = tags.find((t) => t.name === '62F' || t.name === '62M');
  const last = tags[tags.length - 1]!;
  if (!opening && balances) throw new StatementError(`${where}, line ${tags[0]!.at}: no opening balance (:60F: or :60M:)`);
  if (!closing && balances) throw new StatementError(`${where}: no closing balance (:62F: or :62M:) after line ${last.end}; the file looks cut short`);
  const open = opening ? balance(opening, where) : null;
  const close = closing ? balance(closing, where) : null;
  if (open?.currency && close?.currency && open.currency !== close.currency) throw new StatementError(`${where}: opening balance in ${open.currency}, closing balance in ${close.currency}`);
  const currency = open?.currency || close?.currency || '';
  const entries: Mt940Entry[] = [];
  let details: Mt940Entry | null = null;
  for (const tag of tags) {
    if (tag.name === '61') {
      if (closing && tag.at > closing.at) throw new StatementError(`${where}, line ${tag.at}: a transaction after the closing balance (line ${closing.at})`);
      details = entryOf(tag, currency, where);
      entries.push(details);
    } else if (tag.name === '86' && details) details.texts.push(tag.lines.join('\n'));
    else if (tag.name !== 'NS') details = null;
  }
  return { index, id, currency, opening: open?.cents ?? null, closing: close?.cents ?? null, entries };
}

/** Every statement of an MT940 file, each checked (unless `balances` is false, for reading files whose sums
 *  are known not to add up): opening balance + lines = closing balance, in cents. */
export function readMt940(text: string, { balances = true } = {}): Array<StatementRead & { entries: Mt940Entry[] }> {
  const groups = tagsOf(text);
  if (groups.length === 0) throw new StatementError('no MT940 statement found (no line starts with a tag such as :20:)');
  return groups.map((tags, i) => {
    const statement = statementOf(tags, i + 1, balances);
    if (balances) checkBalance(statement, ':60F:', ':62F:');
    return statement;
  });
}

export function parseMt940(text: string): ParsedStatement {
  const lines: StatementLine[] = [];
  let debits = 0;
  for (const s of refusedAs('MT940', () => readMt940(text))) {
    if (s.currency !== 'SGD') throw new StatementError(`MT940: ${statementName(s.index, s.id)} is in ${s.currency || 'no currency'}, not SGD`);
    for (const t of s.entries) {
      // A reversal undoes an earlier booking: never a payment to credit.
      if (!t.credit || t.reversal || t.amount === 0) {
        debits++;
        continue;
      }
      const details = t.texts.join('\n');
      const description = [t.reference, details, t.supplementary].filter((x) => x && x !== 'NONREF').join(' ').replace(/\s+/g, ' ').trim();
      lines.push({
        identity: lineIdentity('mt940', t.bank_ref, { booked_on: t.booked_on, descriptions: [t.reference, details], amount: t.amount, balance: null }),
        booked_on: t.booked_on,
        description,
        amount: t.amount,
        balance: null,
        bank_ref: t.bank_ref,
      });
    }
  }
  return { format: 'mt940', lines, debits };
}
