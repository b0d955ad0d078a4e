import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { AppError, input, ok, parse, strictBody } from '../../lib/http';
import type { EffectRecord } from '../../db/tx';
import type { Metrics } from '../../lib/metrics';
import { ERRORS } from '../../../shared/errors';
import { requireUser } from '../session';
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
import { placeBooking } from './booking';
import { payFinal } from './final-payment';
import { placePurchase } from './purchase';
import { creditsOf, limitsOf, listOrders, orderDetail } from './queries';
import { placeSale } from './sale';

// Orders: buy, book, final payment, sell (writes, each with an Idempotency-Key), lists, detail, credits
// and the caller's limits on a project. Mounted at /h5/api/api/order. Writes take only known fields; the
// idempotency fingerprint covers all of them, the payment password included (keyed hash).
export const orderRoutes = new Hono<AppEnv>();

/** The order engine's run, counted in canopy_orders_total{kind, code}: code 0 when placed, else the
 *  catalogue code of its refusal (server_error's for anything else). A replayed key never runs it, so a
 *  retry is not counted again; refusals before the engine (session, body, key) are not orders. */
function counted<T>(metrics: Metrics | undefined, kind: 'buy' | 'book' | 'finalpay' | 'sell', run: (record: EffectRecord) => Promise<T>): (record: EffectRecord) => Promise<T> {
  if (!metrics) return run;
  return async (record) => {
    try {
      const order = await run(record);
      metrics.orders.inc({ kind, code: '0' });
      return order;
    } catch (err) {
      metrics.orders.inc({ kind, code: String(ERRORS[err instanceof AppError ? err.key : 'server_error'].code) });
      throw err;
    }
  };
}

orderRoutes.post('/buy', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, orderBuySchema);
  return idempotent(c, user.id, raw, counted(c.get('deps').metrics, 'buy', (record) => placePurchase(c.get('deps'), user, data, record)));
});

orderRoutes.post('/book', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, orderBookSchema);
  return idempotent(c, user.id, raw, counted(c.get('deps').metrics, 'book', (record) => placeBooking(c.get('deps'), user, data, record)));
});

orderRoutes.post('/finalpay', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, orderFinalpaySchema);
  return idempotent(c, user.id, raw, counted(c.get('deps').metrics, 'finalpay', (record) => payFinal(c.get('deps'), user, data, record)));
});

orderRoutes.post('/sell', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, orderSellSchema);
  return idempotent(c, user.id, raw, counted(c.get('deps').metrics, 'sell', (record) => placeSale(c.get('deps'), user, data, record)));
});

orderRoutes.get('/lists', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(orderListQuery, await input(c));
  return ok(c, await listOrders(c.get('deps').db, user.id, q));
});

orderRoutes.get('/detail', async (c) => {
  const { user } = await requireUser(c);
  const { id } = parse(idQuery, await input(c));
  return ok(c, await orderDetail(c.get('deps').db, user.id, id));
});

orderRoutes.get('/credits', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(orderCreditsQuery, await input(c));
  const { db, config } = c.get('deps');
  return ok(c, await creditsOf(db, user, config, q));
});

orderRoutes.get('/limits', async (c) => {
  const { user } = await requireUser(c);
  const { project_id } = parse(orderLimitsQuery, await input(c));
  const { db, clock } = c.get('deps');
  return ok(c, await limitsOf(db, user, project_id, clock.now()));
});
