import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { input, ok, parse, strictBody } from '../../lib/http';
import { requireUser } from '../session';
import { offsetChangeSchema, offsetCreateSchema, offsetListQuery, offsetStatusSchema } from '../../../shared/schemas/offset';
import { changePlan, createPlan, plansOf, setPlanStatus } from './service';

// Monthly offset plans (docs/product.md#monthly-offset), mounted at /h5/api/api/offset: subscribe, change,
// pause/resume/cancel (writes with an Idempotency-Key, known fields only) and the caller's list.
export const offsetRoutes = new Hono<AppEnv>();

offsetRoutes.post('/create', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, offsetCreateSchema);
  return idempotent(c, user.id, raw, (record) => createPlan(c.get('deps'), user, data, c.get('lang'), record));
});

offsetRoutes.post('/change', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, offsetChangeSchema);
  return idempotent(c, user.id, raw, (record) => changePlan(c.get('deps'), user, data, c.get('lang'), record));
});

offsetRoutes.post('/status', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, offsetStatusSchema);
  return idempotent(c, user.id, raw, (record) => setPlanStatus(c.get('deps'), user, data, record));
});

offsetRoutes.get('/lists', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(offsetListQuery, await input(c));
  return ok(c, await plansOf(c.get('deps'), user, q));
});
