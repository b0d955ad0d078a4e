import type { Tx } from '../db/tx';
import { prepared } from '../db/prepared';
import type { ReceiptsTable } from '../db/schema';
import { RECEIPT_OF_ENTRY } from '../../shared/schemas/receipt';

// A receipt for every money event an account holder is told about (docs/product.md#receipts), written by
// the ledger with the event's entry, so no use case (alone, batched, operator or scheduler) can commit the
// event without it: the entry's kind names the event, the entry's postings give the total and the fee.
// Numbers run 1, 2, 3... per ledger account owner (a person, or an organisation's account) from a counter
// row moved in the same transaction (docs/decisions/0036-receipts.md).

export type ReceiptKind = ReceiptsTable['kind'];


const CENTS_ACCOUNTS = new Set(['available', 'frozen', 'presale', 'unavailable']);

/** A type, not an interface: a prepared query's parameters are a record (db/prepared.ts). */
export type ReceiptDraft = {
  owner: number;
  kind: ReceiptKind;
  ref_type: string;
  ref_id: number;
  total: number;
  fee: number;
  tons: number;
  created_at: number;
};

interface EntryLike {
  kind: string;
  postings: readonly { owner: number; account: string; amount: number }[];
  ref_type?: string;
  ref_id?: number;
  now: number;
}

/** The receipt an entry gives, or null. Total: what the holder paid or received, the net of their money
 *  accounts (a booking fee only moves between two of them: then the larger move); fee: what the platform's
 *  fee account took; tons: the credits that left or came. */
export function receiptOf(entry: EntryLike): ReceiptDraft | null {
  const kind = Object.hasOwn(RECEIPT_OF_ENTRY, entry.kind) ? RECEIPT_OF_ENTRY[entry.kind] : undefined;
  const holder = entry.postings.find((p) => p.owner !== 0);
  if (!kind || !holder) return null;
  const byAccount = new Map<string, number>();
  let fee = 0;
  let tons = 0;
  for (const p of entry.postings) {
    if (p.owner === 0 && p.account === 'fees') fee += p.amount;
    if (p.owner !== holder.owner) continue;
    if (CENTS_ACCOUNTS.has(p.account)) byAccount.set(p.account, (byAccount.get(p.account) ?? 0) + p.amount);
    if (p.account === 'credits') tons += p.amount;
  }
  const moves = [...byAccount.values()];
  const net = Math.abs(moves.reduce((a, b) => a + b, 0));
  const total = net > 0 ? net : Math.max(0, ...moves.map(Math.abs));
  return { owner: holder.owner, kind, ref_type: entry.ref_type ?? '', ref_id: entry.ref_id ?? 0, total, fee: Math.abs(fee), tons: Math.abs(tons), created_at: entry.now };
}

const nextNumber = prepared((db, p: { owner: number }) =>
  db
    .insertInto('receipt_counters')
    .values({ owner_id: p.owner, last: 1 })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet((eb) => ({ last: eb('receipt_counters.last', '+', 1) })))
    .returning('last'),
);

const receiptInsert = prepared((db, p: ReceiptDraft & { number: number; entryId: number }) =>
  db
    .insertInto('receipts')
    .values({ owner_id: p.owner, number: p.number, entry_id: p.entryId, kind: p.kind, ref_type: p.ref_type, ref_id: p.ref_id, total: p.total, fee: p.fee, tons: p.tons, created_at: p.created_at })
    .returning('id'),
);

const mailQueued = prepared((db, p: { owner: number; receiptId: number; now: number }) =>
  db
    .insertInto('outbox')
    .columns(['to_email', 'subject', 'body', 'created_at', 'receipt_id'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((s) => ['email', s.val('').as('subject'), s.val('').as('body'), s.val(p.now).as('created_at'), s.val(p.receiptId).as('receipt_id')])
        .where('id', '=', p.owner)
        .where('email', '<>', ''),
    ),
);

/** SQLite: the receipt of one entry (its number from the owner's counter) and its mail, when the owner has
 *  an address; built once each (db/prepared.ts), as the entry's own statements. PostgreSQL writes the same
 *  within the ledger's one statement (ledger.ts entriesInsert). */
export async function writeReceipt(tx: Tx, entryId: number, r: ReceiptDraft): Promise<void> {
  const number = Number((await nextNumber.execute(tx, { owner: r.owner })).rows[0]!.last);
  const receiptId = Number((await receiptInsert.execute(tx, { ...r, number, entryId })).rows[0]!.id);
  await mailQueued.execute(tx, { owner: r.owner, receiptId, now: r.created_at });
}
