import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { amountCents, isoDate, lineIdentity, StatementError, type ParsedStatement, type StatementLine } from './line';

// ISO 20022 camt.053 (bank to customer statement), read with fast-xml-parser: Document/BkToCstmrStmt/Stmt/Ntry.
// A credit entry (CdtDbtInd CRDT) gives Amt, BookgDt/Dt, the bank's reference (AcctSvcrRef, of the entry or
// its transaction details) and the texts the reference is found in (RmtInf/Ustrd, Strd/CdtrRefInf/Ref,
// EndToEndId, AddtlNtryInf, AddtlTxInf).

type Node = Record<string, unknown>;

const list = (x: unknown): Node[] => (x === undefined || x === null ? [] : Array.isArray(x) ? (x as Node[]) : [x as Node]);
const text = (x: unknown): string => (x === undefined || x === null ? '' : typeof x === 'object' ? text((x as Node)['#text']) : String(x).trim());
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((n, key) => (n && typeof n === 'object' ? (n as Node)[key] : undefined), node);

export function parseCamt053(xml: string): ParsedStatement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new StatementError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, attributeNamePrefix: '@' }).parse(xml) as Node;
  const statements = list(at(doc, 'Document', 'BkToCstmrStmt', 'Stmt'));
  if (statements.length === 0) throw new StatementError('no camt.053 statement (Document/BkToCstmrStmt/Stmt) found');
  const lines: StatementLine[] = [];
  let debits = 0;
  statements.forEach((stmt, si) => {
    list(stmt.Ntry).forEach((entry, ei) => {
      const where = `statement ${si + 1} entry ${ei + 1}`;
      const indicator = text(entry.CdtDbtInd);
      if (indicator === 'DBIT') {
        debits++;
        return;
      }
      if (indicator !== 'CRDT') throw new StatementError(`${where}: CdtDbtInd "${indicator}" is neither CRDT nor DBIT`);
      if (text(entry.RvslInd) === 'true') {
        debits++;
        return;
      }
      // Only booked entries are money received: pending (PDNG) or information (INFO) entries may never arrive.
      const status = text(entry.Sts) || text(at(entry, 'Sts', 'Cd'));
      if (status !== 'BOOK') {
        debits++;
        return;
      }
      const amt = entry.Amt;
      const currency = typeof amt === 'object' && amt ? text((amt as Node)['@Ccy']) : '';
      if (currency !== 'SGD') throw new StatementError(`${where}: amount in "${currency}", not SGD`);
      const amount = amountCents(text(amt));
      if (amount === null || amount <= 0) throw new StatementError(`${where}: "${text(amt)}" is not an amount`);
      const date = text(at(entry, 'BookgDt', 'Dt')) || text(at(entry, 'BookgDt', 'DtTm')).slice(0, 10);
      const booked = isoDate(date);
      if (!booked) throw new StatementError(`${where}: booking date "${date}" is not a date`);
      const txs = list(at(entry, 'NtryDtls', 'TxDtls'));
      const texts = [
        text(entry.AddtlNtryInf),
        ...txs.flatMap((tx) => [
          ...list(at(tx, 'RmtInf', 'Ustrd')).map(text),
          ...list(at(tx, 'RmtInf', 'Strd')).map((s) => text(at(s, 'CdtrRefInf', 'Ref'))),
          text(at(tx, 'Refs', 'EndToEndId')).replace(/^NOTPROVIDED$/, ''),
          text(tx.AddtlTxInf),
        ]),
      ].filter(Boolean);
      const bankRef = text(entry.AcctSvcrRef) || text(at(txs[0], 'Refs', 'AcctSvcrRef'));
      // Without the bank's reference: the hash, with the entry's NtryRef beside the texts (camt.053 has no
      // running balance per entry to tell two equal payments of a day apart).
      lines.push({
        identity: lineIdentity('camt053', bankRef, { booked_on: booked, descriptions: [...texts, `NtryRef:${text(entry.NtryRef)}`], amount, balance: null }),
        booked_on: booked,
        description: texts.join(' '),
        amount,
        balance: null,
        bank_ref: bankRef,
        // Several transactions booked as one entry: one amount for several payers, never credited whole to
        // the one whose reference happens to be in it; an operator splits it (topup:assign).
        batch: txs.length > 1,
      });
    });
  });
  return { format: 'camt053', lines, debits };
}
