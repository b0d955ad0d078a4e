import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { body, clientIp, ok, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requirePerson } from '../session';
import { passkeyAddSchema, passkeyLoginSchema, passkeyOptionsSchema, passkeyRemoveSchema } from '../../../shared/schemas/passkey';
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from './service';
import { passkeySignIn, signInOptions } from './sign-in';
import { relyingParty, type RelyingParty } from './relying-party';

// Passkeys (docs/product.md#passkeys): a signed-in member's list under /api/user/passkeys, the sign-in under
// /api/login/passkey. A member's writes are keyed (a retried options request gets the same challenge back,
// still good once); the sign-in and its options are not, as a login is not. Passkeys are the signed-in
// person's own, also while they act for an organisation (requirePerson).

export const passkeyRoutes = new Hono<AppEnv>();

/** The relying party of the page this request comes from (relying-party.ts), before anything is counted. */
const rpOf = (c: Context<AppEnv>): RelyingParty => relyingParty(c.get('deps'), { origin: c.req.header('origin'), host: c.req.header('host') });

passkeyRoutes.get('/', async (c) => {
  const { person: user } = await requirePerson(c);
  return ok(c, await listPasskeys(c.get('deps'), user.id));
});

passkeyRoutes.post('/options', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyOptionsSchema);
  const rp = rpOf(c);
  return idempotent(c, user.id, raw, () => registrationOptions(c.get('deps'), user, data.password, rp));
});

passkeyRoutes.post('/add', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyAddSchema);
  const rp = rpOf(c);
  return idempotent(c, user.id, raw, (record) => addPasskey(c.get('deps'), user, data, rp, record));
});

passkeyRoutes.post('/remove', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyRemoveSchema);
  return idempotent(c, user.id, raw, (record) => removePasskey(c.get('deps'), user, data.id, record));
});

export const passkeyLoginRoutes = new Hono<AppEnv>();

passkeyLoginRoutes.post('/options', async (c) => {
  const rp = rpOf(c);
  return ok(c, await signInOptions(c.get('deps'), clientIp(c), rp));
});

passkeyLoginRoutes.post('/', async (c) => {
  const data = await body(c, passkeyLoginSchema);
  const rp = rpOf(c);
  return ok(c, await passkeySignIn(c.get('deps'), data.credential, clientIp(c), rp));
});
