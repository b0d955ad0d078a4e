import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { epochMs, idSchema, int, intFromInput, isoTime, paged, pageSchema } from './common';

// Marketplace orders (docs/product.md#buying): the request schemas the server validates with and the forms
// reuse, and the shapes the API answers. Money integer cents, quantities whole tons, times ISO 8601 SGT plus
// epoch ms.

const m = (key: ErrorKey) => key;

export const ORDER_STATUSES = [
  'applying',
  'in_progress',
  'completed',
  'pending_final_payment',
  'final_payment_made',
  'final_payment_expired',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_KINDS = ['purchase', 'presale', 'sell'] as const;

/** The payment password as typed; its strength rules apply when it is set, not when it is used. */
const paymentPassword = v.pipe(v.string(m('required')), v.nonEmpty(m('required')), v.maxLength(200, m('too_long')));

// Whole numbers only here; the bounds (project minimum and maximum, holdings) are the server's business
// refusals, so a 0 reads "Quantity cannot be less than {n}" rather than a format error.
const tonsField = (key: ErrorKey) => v.pipe(intFromInput(key), v.minValue(-1_000_000_000, m(key)), v.maxValue(1_000_000_000, m(key)));

/** POST order/buy and order/sell. */
export const orderBuySchema = v.object({
  project_id: idSchema,
  tons: tonsField('invalid_number'),
  password: paymentPassword,
});
/** @alias The same body as a buy: project and tons (a sale checks its own limits on the server). */
export const orderSellSchema = orderBuySchema;

/** POST order/book: a quantity that is not a whole number is a wrong pre-sale quantity. */
export const orderBookSchema = v.object({
  project_id: idSchema,
  tons: tonsField('presale_quantity'),
  password: paymentPassword,
});

/** POST order/finalpay. */
export const orderFinalpaySchema = v.object({ order_id: idSchema, password: paymentPassword });

/** GET order/lists. */
export const orderListQuery = v.object({
  ...pageSchema.entries,
  status: v.optional(v.picklist([...ORDER_STATUSES, ''], m('invalid_request')), ''),
  side: v.optional(v.picklist([...ORDER_SIDES, ''], m('invalid_request')), ''),
});

/** GET order/credits (the movements are paged). */
export const orderCreditsQuery = v.object({ ...pageSchema.entries });

/** GET order/limits. */
export const orderLimitsQuery = v.object({ project_id: idSchema });

// ---- Answers (the types are inferred from these schemas, written once) ----

const cents = (what = 'Cents') => v.pipe(int(), v.description(what));

export const orderSchema = v.strictObject({
  id: int(),
  order_no: v.string(),
  project_id: int(),
  project_name: v.string(),
  project_name_cn: v.string(),
  project_image: v.string(),
  side: v.picklist(ORDER_SIDES),
  kind: v.picklist(ORDER_KINDS),
  status: v.picklist(ORDER_STATUSES),
  unit_price: cents('Cents per ton (sell: the buy-back price)'),
  tons: int(),
  total: cents('Cents (sell: the proceeds)'),
  booking_fee: cents(),
  final_unit_price: v.nullable(int()),
  final_tons: v.nullable(int()),
  final_amount: v.pipe(v.nullable(int()), v.description('Cents the final payment takes from available')),
  final_deadline: v.nullable(isoTime()),
  final_deadline_ms: v.nullable(epochMs()),
  cycle_end: v.nullable(isoTime()),
  cycle_end_ms: v.nullable(epochMs()),
  presale_tons: v.pipe(int(), v.description('Sell: tons of pre-sale origin among those sold')),
  settle_at: v.nullable(isoTime()),
  settle_at_ms: v.nullable(epochMs()),
  settled_at: v.nullable(isoTime()),
  settled_at_ms: v.nullable(epochMs()),
  completed_at: v.nullable(isoTime()),
  completed_at_ms: v.nullable(epochMs()),
  created_at: isoTime(),
  created_at_ms: epochMs(),
  updated_at: isoTime(),
  updated_at_ms: epochMs(),
});
export type Order = v.InferOutput<typeof orderSchema>;
export const orderPageSchema = paged(orderSchema);

export const creditHoldingSchema = v.strictObject({
  project_id: int(),
  project_name: v.string(),
  project_name_cn: v.string(),
  project_image: v.string(),
  tons: int(),
  purchase_tons: int(),
  presale_tons: int(),
  buyback_price: cents('Cents per ton the platform offers now'),
  sellable_tons: v.pipe(int(), v.description('What the caller may sell now (grade rules applied)')),
});
export type CreditHolding = v.InferOutput<typeof creditHoldingSchema>;

export const creditMovementSchema = v.strictObject({
  id: int(),
  kind: v.pipe(v.string(), v.description('credit_issue (a cycle completed) or credit_sell')),
  amount: v.pipe(int(), v.description('Tons, signed')),
  balance_after: int(),
  order_id: v.nullable(int()),
  order_no: v.nullable(v.string()),
  project_id: v.nullable(int()),
  project_name: v.nullable(v.string()),
  project_name_cn: v.nullable(v.string()),
  memo: v.string(),
  created_at: isoTime(),
  created_at_ms: epochMs(),
});
export type CreditMovement = v.InferOutput<typeof creditMovementSchema>;

export const orderCreditsSchema = paged(creditMovementSchema, {
  balance: v.pipe(int(), v.description("Tons, the ledger's credits balance")),
  holdings: v.array(creditHoldingSchema),
});
export type OrderCredits = v.InferOutput<typeof orderCreditsSchema>;

export const orderLimitsSchema = v.strictObject({
  project_id: int(),
  monthly_limit: int(),
  total_limit: int(),
  monthly_used: int(),
  total_used: int(),
  monthly_left: int(),
  total_left: int(),
  required_grade: int(),
  grade: int(),
});
export type OrderLimits = v.InferOutput<typeof orderLimitsSchema>;
