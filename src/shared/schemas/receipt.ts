import * as v from 'valibot';
import { epochMs, idSchema, int, isoTime, paged, pageSchema } from './common';

// Receipts (docs/product.md#receipts): one per money event of an account, numbered per account; the
// request schemas of the receipt endpoints and the shape they answer.

export const RECEIPT_KINDS = ['purchase', 'booking', 'final_payment', 'sale', 'retirement', 'topup', 'withdrawal'] as const;
export type ReceiptKindName = (typeof RECEIPT_KINDS)[number];

/** The ledger entries that give a receipt, and the receipt's kind: the ledger writes it with the entry
 *  (src/server/ledger/receipts.ts); the fund log links these entries to their receipt. */
export const RECEIPT_OF_ENTRY: Readonly<Record<string, ReceiptKindName>> = {
  order_buy: 'purchase',
  presale_booking: 'booking',
  presale_final_payment: 'final_payment',
  credit_sell: 'sale',
  credit_retire: 'retirement',
  topup: 'topup',
  withdrawal_complete: 'withdrawal',
};

export const PAYMENT_METHODS = ['wallet', 'paynow', 'bank', 'none'] as const;

export const receiptSchema = v.strictObject({
  id: int(),
  number: v.pipe(int(), v.description("The receipt's number in its account: 1, 2, 3... without gaps")),
  kind: v.picklist(RECEIPT_KINDS),
  reference: v.pipe(v.string(), v.description('The order number, top-up or withdrawal number, or certificate id')),
  order_id: v.nullable(int()),
  project_name: v.string(),
  project_name_cn: v.string(),
  tons: int(),
  serials: v.array(v.strictObject({ from: v.string(), to: v.string() })),
  unit_price: v.pipe(int(), v.description('Cents per ton; 0 when the event has no price')),
  fee: v.pipe(int(), v.description('Cents')),
  total: v.pipe(int(), v.description('Cents the account paid or received (the ledger entry)')),
  payment_method: v.picklist(PAYMENT_METHODS),
  certificate_url: v.string(),
  company: v.strictObject({ name: v.string(), uen: v.string(), address: v.string() }),
  created_at: isoTime(),
  created_at_ms: epochMs(),
});
export type Receipt = v.InferOutput<typeof receiptSchema>;
export const receiptPageSchema = paged(receiptSchema);

/** The receipts of one thing: an order, a fund-log entry or a retirement (none: every receipt, newest first). */
export const receiptsQuery = v.object({
  ...pageSchema.entries,
  order_id: v.optional(idSchema),
  entry_id: v.optional(idSchema),
  retirement_id: v.optional(v.pipe(v.string(), v.maxLength(64, 'invalid_request'))),
});

export const receiptIdQuery = v.object({ id: idSchema });
