import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { input, ok, parse, strictBody } from '../../lib/http';
import { webhookCreateSchema, webhookDeliveriesQuery, webhookIdSchema, webhookResendSchema } from '../../../shared/schemas/webhook';
import { requirePerson, requireUser } from '../session';
import { createEndpoint, deleteEndpoint, deliveryLog, listEndpoints, pingEndpoint, resendDelivery, rotateSecret } from './service';

// Webhooks (docs/product.md#webhooks), mounted at /h5/api/api/developer/webhooks. A person keeps their own
// account's endpoints; for an organisation its owner and admins do (the 'manage' capability), reads included:
// the log shows what the organisation's systems are told. Writes take an Idempotency-Key. Pings and resends
// are throttled per account (WEBHOOK_MANUAL_SENDS_PER_HOUR): each makes Canopy send to a URL of the account's choosing.
export const webhookRoutes = new Hono<AppEnv>();

/** The account whose endpoints these are, and the person acting. */
async function manager(c: Context<AppEnv>): Promise<{ owner: number; person: number }> {
  const { user } = await requireUser(c, 'manage');
  const { person } = await requirePerson(c);
  return { owner: user.id, person: person.id };
}

webhookRoutes.get('/', async (c) => {
  const { owner } = await manager(c);
  return ok(c, await listEndpoints(c.get('deps'), owner));
});

webhookRoutes.post('/', async (c) => {
  const { owner, person } = await manager(c);
  const { data, raw } = await strictBody(c, webhookCreateSchema);
  return idempotent(c, owner, raw, (record) => createEndpoint(c.get('deps'), owner, person, data, record));
});

webhookRoutes.post('/rotate', async (c) => {
  const { owner } = await manager(c);
  const { data, raw } = await strictBody(c, webhookIdSchema);
  return idempotent(c, owner, raw, (record) => rotateSecret(c.get('deps'), owner, data.id, record));
});

webhookRoutes.post('/delete', async (c) => {
  const { owner } = await manager(c);
  const { data, raw } = await strictBody(c, webhookIdSchema);
  return idempotent(c, owner, raw, (record) => deleteEndpoint(c.get('deps'), owner, data.id, record));
});

webhookRoutes.post('/ping', async (c) => {
  const { owner } = await manager(c);
  const { data, raw } = await strictBody(c, webhookIdSchema);
  // Counted when it runs, not when it is replayed: a retry with the same key gets its answer, never a 429.
  return idempotent(c, owner, raw, async (record) => {
    await c.get('deps').limits.consume([['webhook_send_account', String(owner)]]);
    return pingEndpoint(c.get('deps'), owner, data.id, record);
  });
});

webhookRoutes.get('/deliveries', async (c) => {
  const { owner } = await manager(c);
  return ok(c, await deliveryLog(c.get('deps'), owner, parse(webhookDeliveriesQuery, await input(c))));
});

webhookRoutes.post('/resend', async (c) => {
  const { owner } = await manager(c);
  const { data, raw } = await strictBody(c, webhookResendSchema);
  return idempotent(c, owner, raw, async (record) => {
    await c.get('deps').limits.consume([['webhook_send_account', String(owner)]]);
    return resendDelivery(c.get('deps'), owner, data.delivery_id, record);
  });
});
