import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  centsText,
  checkBalance,
  decimalCents,
  isoDate,
  lineIdentity,
  refusedAs,
  StatementError,
  statementName,
  type ParsedStatement,
  type StatementEntry,
  type StatementLine,
  type StatementRead,
} from './line';

// ISO 20022 camt.053 (bank to customer statement), versions 001.02 to 001.13 alike (namespaces dropped),
// read with fast-xml-parser: Document/BkToCstmrStmt/Stmt (one or several), each with its balances (Bal) and
// entries (Ntry). An entry gives Amt (decimal text, up to five decimals), CdtDbtInd, Sts, BookgDt, the bank's
// reference (AcctSvcrRef) and, under NtryDtls/TxDtls, the texts the payer's reference is found in
// (RmtInf/Ustrd, Strd/CdtrRefInf/Ref, EndToEndId, AddtlTxInf). Several TxDtls that each give their amount are
// several payments; without their amounts the entry is one batch (docs/decisions/0024-bank-statements.md).

type Node = Record<string, unknown>;

const list = (x: unknown): Node[] => (x === undefined || x === null ? [] : Array.isArray(x) ? (x as Node[]) : [x as Node]);
const text = (x: unknown): string => (x === undefined || x === null ? '' : typeof x === 'object' ? text((x as Node)['#text']) : String(x).trim());
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((n, key) => (n && typeof n === 'object' ? (n as Node)[key] : undefined), node);

/** An <Amt Ccy="..">..</Amt> in cents and its currency. */
function money(amt: unknown, where: string): { cents: number; currency: string } {
  const currency = amt && typeof amt === 'object' ? text((amt as Node)['@Ccy']) : '';
  const value = decimalCents(text(amt), '.');
  if ('error' in value) throw new StatementError(`${where}: amount ${value.error}`);
  return { cents: value.cents, currency };
}

function balanceOf(stmt: Node, codes: string[], where: string): { cents: number; currency: string; code: string } | null {
  for (const code of codes) {
    const bal = list(stmt.Bal).find((b) => text(at(b, 'Tp', 'CdOrPrtry', 'Cd')) === code);
    if (!bal) continue;
    const m = money(bal.Amt, `${where}, balance ${code}`);
    return { cents: text(bal.CdtDbtInd) === 'DBIT' ? -m.cents : m.cents, currency: m.currency, code };
  }
  return null;
}

function txTexts(tx: Node): string[] {
  return [
    ...list(at(tx, 'RmtInf', 'Ustrd')).map(text),
    ...list(at(tx, 'RmtInf', 'Strd')).map((s) => text(at(s, 'CdtrRefInf', 'Ref'))),
    text(at(tx, 'Refs', 'EndToEndId')).replace(/^NOTPROVIDED$/, ''),
    text(tx.AddtlTxInf),
  ].filter(Boolean);
}

/** The amount a TxDtls gives for itself (v3+: Amt; every version: AmtDtls/TxAmt/Amt), else null. */
function txAmount(tx: Node): unknown {
  return tx.Amt ?? at(tx, 'AmtDtls', 'TxAmt', 'Amt') ?? null;
}

/** One Ntry: one entry, or one per TxDtls when several each give their amount. */
function entriesOf(entry: Node, where: string): StatementEntry[] {
  const indicator = text(entry.CdtDbtInd);
  if (indicator !== 'CRDT' && indicator !== 'DBIT') throw new StatementError(`${where}: CdtDbtInd "${indicator}" is neither CRDT nor DBIT`);
  const { cents, currency } = money(entry.Amt, where);
  // Only booked entries are money moved: pending (PDNG) or information (INFO) entries may never arrive.
  const status = text(entry.Sts) || text(at(entry, 'Sts', 'Cd'));
  const date = text(at(entry, 'BookgDt', 'Dt')) || text(at(entry, 'BookgDt', 'DtTm')).slice(0, 10) || text(at(entry, 'ValDt', 'Dt'));
  const booked = isoDate(date);
  if (!booked && status === 'BOOK') throw new StatementError(`${where}: booking date "${date}" is not a date`);
  const txs = list(entry.NtryDtls).flatMap((d) => list(d.TxDtls));
  const base = { credit: indicator === 'CRDT', reversal: text(entry.RvslInd) === 'true', currency, booked_on: booked ?? '', booked: status === 'BOOK', batch: false };
  const bankRef = text(entry.AcctSvcrRef);
  const parts = txs.length > 1 && txs.every((tx) => txAmount(tx) !== null) ? txs : [];
  if (parts.length === 0) {
    return [
      {
        ...base,
        at: where,
        amount: cents,
        bank_ref: bankRef || text(at(txs[0], 'Refs', 'AcctSvcrRef')),
        texts: [text(entry.AddtlNtryInf), ...txs.flatMap(txTexts)].filter(Boolean),
        // Several transactions in one amount: never credited whole to the one whose reference is in it.
        batch: txs.length > 1,
        extra: [`NtryRef:${text(entry.NtryRef)}`],
      },
    ];
  }
  const split = parts.map((tx, i) => {
    const own = money(txAmount(tx), `${where}, transaction ${i + 1}`);
    if (own.currency && currency && own.currency !== currency) throw new StatementError(`${where}, transaction ${i + 1}: amount in ${own.currency}, the entry in ${currency}`);
    const ref = text(at(tx, 'Refs', 'AcctSvcrRef'));
    return {
      ...base,
      at: `${where}, transaction ${i + 1}`,
      amount: own.cents,
      bank_ref: ref && ref !== bankRef ? ref : bankRef ? `${bankRef}/${i + 1}` : '',
      texts: [text(entry.AddtlNtryInf), ...txTexts(tx)].filter(Boolean),
      extra: [`NtryRef:${text(entry.NtryRef)}`, `TxDtls:${i + 1}`],
    };
  });
  const sum = split.reduce((s, p) => s + p.amount, 0);
  if (sum !== cents) throw new StatementError(`${where}: its ${split.length} transactions add up to ${centsText(sum)}, the entry says ${centsText(cents)}`);
  return split;
}

/** Every statement of a camt.053 file, each checked (unless `balances` is false): OPBD (or PRCD) + booked
 *  entries = CLBD, in cents, balances and entries in one currency. */
export function readCamt053(xml: string, { balances = true } = {}): StatementRead[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new StatementError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, attributeNamePrefix: '@' }).parse(xml) as Node;
  const statements = list(at(doc, 'Document', 'BkToCstmrStmt', 'Stmt'));
  if (statements.length === 0) throw new StatementError('no camt.053 statement (Document/BkToCstmrStmt/Stmt) found');
  return statements.map((stmt, si) => {
    const id = text(stmt.Id);
    const name = statementName(si + 1, id);
    const opening = balanceOf(stmt, ['OPBD', 'PRCD'], name);
    const closing = balanceOf(stmt, ['CLBD'], name);
    const entries = list(stmt.Ntry).flatMap((entry, ei) => entriesOf(entry, `${name}, entry ${ei + 1}${text(entry.NtryRef) ? ` (NtryRef ${text(entry.NtryRef)})` : ''}`));
    const currency = opening?.currency || closing?.currency || text(at(stmt, 'Acct', 'Ccy')) || entries[0]?.currency || '';
    const read = { index: si + 1, id, currency, opening: opening?.cents ?? null, closing: closing?.cents ?? null, entries };
    if (balances) {
      // One statement is one account in one currency: a sum across currencies means nothing.
      if (closing && opening && closing.currency !== opening.currency) throw new StatementError(`${name}: opening balance in ${opening.currency}, closing balance in ${closing.currency}`);
      const odd = entries.find((e) => e.currency !== currency);
      if (odd) throw new StatementError(`${odd.at}: amount in "${odd.currency}", not ${currency} like its statement`);
      checkBalance(read, opening?.code ?? 'OPBD', 'CLBD');
    }
    return read;
  });
}

export function parseCamt053(xml: string): ParsedStatement {
  const lines: StatementLine[] = [];
  let debits = 0;
  for (const s of refusedAs('camt.053', () => readCamt053(xml))) {
    for (const e of s.entries) {
      if (!e.credit || e.reversal || !e.booked || e.amount === 0) {
        debits++;
        continue;
      }
      if (e.currency !== 'SGD') throw new StatementError(`camt.053: ${e.at}: amount in "${e.currency}", not SGD`);
      // Without the bank's reference: the hash, with the entry's NtryRef beside the texts (camt.053 has no
      // running balance per entry to tell two equal payments of a day apart).
      lines.push({
        identity: lineIdentity('camt053', e.bank_ref, { booked_on: e.booked_on, descriptions: [...e.texts, ...e.extra], amount: e.amount, balance: null }),
        booked_on: e.booked_on,
        description: e.texts.join(' '),
        amount: e.amount,
        balance: null,
        bank_ref: e.bank_ref,
        batch: e.batch,
      });
    }
  }
  return { format: 'camt053', lines, debits };
}
