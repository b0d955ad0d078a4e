import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import { pageSchema } from '../../../shared/schemas/common';
import { footprintSaveSchema } from '../../../shared/schemas/footprint';
import { listFootprints, saveFootprint } from './service';

// Carbon footprint results of a signed-in user (docs/product.md#carbon-footprint), mounted at
// /api/user/footprint. The calculator itself runs in the app, offline; the server keeps results for the
// account and recomputes each one.
export const footprintRoutes = new Hono<AppEnv>();

footprintRoutes.post('/', async (c) => {
  const { user } = await requireUser(c, 'trade');
  // Unknown fields are refused (a misspelt answer would otherwise count as 0); the client's own total
  // is accepted by the schema and dropped here.
  const { data, raw } = await strictBody(c, footprintSaveSchema);
  const { total_kg: _clientTotal, ...answers } = data;
  return idempotent(c, user.id, raw, (record) => saveFootprint(c.get('deps'), user, answers, record));
});

footprintRoutes.get('/', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(pageSchema, await input(c));
  return ok(c, await listFootprints(c.get('deps'), user, q));
});
