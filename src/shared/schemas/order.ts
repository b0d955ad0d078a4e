import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { idSchema, intFromInput, pageSchema } from './common';

// Marketplace orders (issue 4): the request schemas the server validates with and the forms reuse, and the
// shapes the API answers. Money integer cents, quantities whole tons, times ISO 8601 SGT plus epoch ms.

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
export type OrderKind = 'purchase' | 'presale' | 'sell';

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

export interface Order {
  id: number;
  order_no: string;
  project_id: number;
  project_name: string;
  project_name_cn: string;
  project_image: string;
  side: OrderSide;
  kind: OrderKind;
  status: OrderStatus;
  unit_price: number; // cents per ton (sell: the buy-back price)
  tons: number;
  total: number; // cents (sell: the proceeds)
  booking_fee: number;
  final_unit_price: number | null;
  final_tons: number | null;
  final_amount: number | null; // cents the final payment takes from available
  final_deadline: string | null;
  final_deadline_ms: number | null;
  cycle_end: string | null;
  cycle_end_ms: number | null;
  presale_tons: number; // sell: tons of pre-sale origin among those sold
  settle_at: string | null;
  settle_at_ms: number | null;
  settled_at: string | null;
  settled_at_ms: number | null;
  completed_at: string | null;
  completed_at_ms: number | null;
  created_at: string;
  created_at_ms: number;
  updated_at: string;
  updated_at_ms: number;
}

export interface CreditHolding {
  project_id: number;
  project_name: string;
  project_name_cn: string;
  project_image: string;
  tons: number;
  purchase_tons: number;
  presale_tons: number;
  buyback_price: number; // cents per ton the platform offers now
  sellable_tons: number; // what the caller may sell now (grade rules applied)
}

export interface CreditMovement {
  id: number;
  kind: string; // credit_issue (a cycle completed) | credit_sell
  amount: number; // tons, signed
  balance_after: number;
  order_id: number | null;
  order_no: string | null;
  project_id: number | null;
  project_name: string | null;
  project_name_cn: string | null;
  memo: string;
  created_at: string;
  created_at_ms: number;
}

export interface OrderCredits {
  balance: number; // tons, the ledger's credits balance
  holdings: CreditHolding[];
  list: CreditMovement[];
  total: number;
  page: number;
  page_size: number;
}

export interface OrderLimits {
  project_id: number;
  monthly_limit: number;
  total_limit: number;
  monthly_used: number;
  total_used: number;
  monthly_left: number;
  total_left: number;
  required_grade: number;
  grade: number;
}
