import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { input, ok, parse, strictBody } from '../../lib/http';
import { requireUser } from '../session';
import { iccCapQuery, iccEmissionsSchema } from '../../../shared/schemas/icc';
import { capOf } from './cap';
import { saveEmissions } from './service';

// Singapore carbon tax for the signed-in account (docs/product.md#singapore-carbon-tax), mounted at
// /h5/api/api/icc: the cap of a compliance year, and the taxable emissions that give it.
export const iccRoutes = new Hono<AppEnv>();

iccRoutes.get('/cap', async (c) => {
  const { user } = await requireUser(c);
  const { year } = parse(iccCapQuery, await input(c));
  return ok(c, await capOf(c.get('deps').db, user.id, year));
});

iccRoutes.post('/emissions', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, iccEmissionsSchema);
  return idempotent(c, user.id, raw, (record) => saveEmissions(c.get('deps'), user, data, record));
});
