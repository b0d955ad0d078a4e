import type { Endpoint } from '../../lib/openapi-endpoint';
import type { ErrorKey } from '../../../shared/errors';
import { PATHS } from '../../../shared/api';
import { idQuery } from '../../../shared/schemas/content';
import {
  orderBookSchema,
  orderBuySchema,
  orderCreditsQuery,
  orderCreditsSchema,
  orderFinalpaySchema,
  orderLimitsQuery,
  orderLimitsSchema,
  orderListQuery,
  orderPageSchema,
  orderSchema,
  orderSellSchema,
} from '../../../shared/schemas/order';

// The order endpoints, in the shape of ENDPOINTS in src/server/openapi.ts, for that list to include
// (`...ORDER_ENDPOINTS`). Writes take an Idempotency-Key header; all need a signed-in user.
export const ORDER_PATHS = { detail: PATHS.orderDetail, limits: PATHS.orderLimits } as const;

/** What every order write can refuse with before its own rules: the account's state and the payment
 *  password (order/purchase.ts and its siblings, user/trade-password.ts). */
const WRITE: ErrorKey[] = ['risk_forbidden', 'account_locked', 'withdraw_password_unset', 'project_password_incorrect', 'balance_frozen', 'not_found'];

export const ORDER_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.orderBuy,
    operationId: 'orderBuy',
    tag: 'Orders',
    summary: 'Buy tons of a selling project (payment password)',
    schema: orderBuySchema,
    auth: 'user',
    idempotent: true,
    answer: orderSchema,
    errors: [...WRITE, 'project_not_started', 'project_ended', 'project_sales_paused', 'grade_not_met', 'monthly_limit', 'total_limit', 'below_min_tons', 'above_max_tons', 'insufficient_remaining', 'insufficient_balance'],
    gives: 'Order (status in_progress, cycle_end)',
  },
  {
    method: 'post',
    path: PATHS.orderBook,
    operationId: 'orderBook',
    tag: 'Orders',
    summary: 'Book a pre-sale; the booking fee moves to the pre-sale balance',
    schema: orderBookSchema,
    auth: 'user',
    idempotent: true,
    answer: orderSchema,
    errors: [...WRITE, 'project_ended', 'project_full', 'project_sales_paused', 'presale_quantity', 'grade_not_met', 'monthly_limit', 'total_limit', 'insufficient_remaining', 'insufficient_balance'],
    gives: 'Order (kind presale, status applying)',
  },
  {
    method: 'post',
    path: PATHS.orderFinalpay,
    operationId: 'orderFinalpay',
    tag: 'Orders',
    summary: 'Pay the final balance of an allocated pre-sale before its deadline',
    schema: orderFinalpaySchema,
    auth: 'user',
    idempotent: true,
    answer: orderSchema,
    errors: [...WRITE, 'final_payment_failed', 'final_payment_expired', 'insufficient_balance'],
    gives: 'Order (status final_payment_made)',
  },
  {
    method: 'post',
    path: PATHS.orderSell,
    operationId: 'orderSell',
    tag: 'Orders',
    summary: 'Sell credits of a project back at the buy-back price',
    schema: orderSellSchema,
    auth: 'user',
    idempotent: true,
    answer: orderSchema,
    errors: [...WRITE, 'sell_not_eligible', 'insufficient_credits'],
    gives: 'Order (side sell, status in_progress until settle_at)',
  },
  { method: 'get', path: PATHS.orderLists, operationId: 'orderLists', tag: 'Orders', summary: "The caller's orders, newest first", schema: orderListQuery, auth: 'user', answer: orderPageSchema, gives: '{list: Order[], total, page, page_size}' },
  { method: 'get', path: ORDER_PATHS.detail, operationId: 'orderDetail', tag: 'Orders', summary: "One of the caller's orders", schema: idQuery, auth: 'user', answer: orderSchema, errors: ['not_found'], gives: 'Order' },
  {
    method: 'get',
    path: PATHS.orderCredits,
    operationId: 'orderCredits',
    tag: 'Orders',
    summary: 'Carbon credits: holdings per project and every credit movement',
    schema: orderCreditsQuery,
    auth: 'user',
    answer: orderCreditsSchema,
    gives: '{balance, holdings: CreditHolding[], list: CreditMovement[], total, page, page_size}',
  },
  {
    method: 'get',
    path: ORDER_PATHS.limits,
    operationId: 'orderLimits',
    tag: 'Orders',
    summary: "The caller's monthly and total limits on a project",
    schema: orderLimitsQuery,
    auth: 'user',
    answer: orderLimitsSchema,
    errors: ['not_found'],
    gives: 'OrderLimits',
  },
];
