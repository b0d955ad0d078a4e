import { Hono } from 'hono';
import type { AppEnv } from '../../app';
import { idempotent } from '../../lib/idempotency';
import { input, ok, parse } from '../../lib/http';
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
import { creditsOf, limitsOf, listOrders, orderDetail, payFinal, placeBooking, placePurchase, placeSale } from './service';

// Orders: buy, book, final payment, sell (writes, each with an Idempotency-Key), lists, detail, credits
// and the caller's limits on a project. Mounted at /h5/api/api/order. The payment password is not part of
// the idempotency fingerprint: a retry of the same intent is the same intent whatever was typed.
export const orderRoutes = new Hono<AppEnv>();

orderRoutes.post('/buy', async (c) => {
  const { user } = await requireUser(c);
  const body = parse(orderBuySchema, await input(c));
  return idempotent(c, user.id, { project_id: body.project_id, tons: body.tons }, () => placePurchase(c.get('deps'), user, body));
});

orderRoutes.post('/book', async (c) => {
  const { user } = await requireUser(c);
  const body = parse(orderBookSchema, await input(c));
  return idempotent(c, user.id, { project_id: body.project_id, tons: body.tons }, () => placeBooking(c.get('deps'), user, body));
});

orderRoutes.post('/finalpay', async (c) => {
  const { user } = await requireUser(c);
  const body = parse(orderFinalpaySchema, await input(c));
  return idempotent(c, user.id, { order_id: body.order_id }, () => payFinal(c.get('deps'), user, body));
});

orderRoutes.post('/sell', async (c) => {
  const { user } = await requireUser(c);
  const body = parse(orderSellSchema, await input(c));
  return idempotent(c, user.id, { project_id: body.project_id, tons: body.tons }, () => placeSale(c.get('deps'), user, body));
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
