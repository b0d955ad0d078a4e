import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { idQuery } from '../../../shared/schemas/content';
import {
  orderBookSchema,
  orderBuySchema,
  orderCreditsQuery,
  orderFinalpaySchema,
  orderLimitsQuery,
  orderListQuery,
  orderSellSchema,
} from '../../../shared/schemas/order';

// The order endpoints, in the shape of ENDPOINTS in src/server/openapi.ts, for that list to include
// (`...ORDER_ENDPOINTS`). Writes take an Idempotency-Key header; all need a signed-in user.
export const ORDER_PATHS = { detail: PATHS.orderDetail, limits: PATHS.orderLimits } as const;

export const ORDER_ENDPOINTS: Endpoint[] = [
  { method: 'post', path: PATHS.orderBuy, summary: 'Buy tons of a selling project (payment password)', schema: orderBuySchema, auth: 'user', gives: 'Order (status in_progress, cycle_end)' },
  { method: 'post', path: PATHS.orderBook, summary: 'Book a pre-sale; the booking fee moves to the pre-sale balance', schema: orderBookSchema, auth: 'user', gives: 'Order (kind presale, status applying)' },
  { method: 'post', path: PATHS.orderFinalpay, summary: 'Pay the final balance of an allocated pre-sale before its deadline', schema: orderFinalpaySchema, auth: 'user', gives: 'Order (status final_payment_made)' },
  { method: 'post', path: PATHS.orderSell, summary: 'Sell credits of a project back at the buy-back price', schema: orderSellSchema, auth: 'user', gives: 'Order (side sell, status in_progress until settle_at)' },
  { method: 'get', path: PATHS.orderLists, summary: "The caller's orders, newest first", schema: orderListQuery, auth: 'user', gives: '{list: Order[], total, page, page_size}' },
  { method: 'get', path: ORDER_PATHS.detail, summary: 'One of the caller\'s orders', schema: idQuery, auth: 'user', gives: 'Order' },
  { method: 'get', path: PATHS.orderCredits, summary: 'Carbon credits: holdings per project and every credit movement', schema: orderCreditsQuery, auth: 'user', gives: '{balance, holdings: CreditHolding[], list: CreditMovement[], total, page, page_size}' },
  { method: 'get', path: ORDER_PATHS.limits, summary: "The caller's monthly and total limits on a project", schema: orderLimitsQuery, auth: 'user', gives: 'OrderLimits' },
];
