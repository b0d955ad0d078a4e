import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { body, clientIp, ok, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requirePerson } from '../session';
import { passkeyAddSchema, passkeyLoginSchema, passkeyOptionsSchema, passkeyRemoveSchema } from '../../../shared/schemas/passkey';
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from './service';
import { passkeySignIn, signInOptions } from './sign-in';

// Passkeys (docs/product.md#passkeys): a signed-in member's list under /api/user/passkeys, the sign-in under
// /api/login/passkey. A member's writes are keyed (a retried options request gets the same challenge back,
// still good once); the sign-in and its options are not, as a login is not. Passkeys are the signed-in
// person's own, also while they act for an organisation (requirePerson).

export const passkeyRoutes = new Hono<AppEnv>();

passkeyRoutes.get('/', async (c) => {
  const { person: user } = await requirePerson(c);
  return ok(c, await listPasskeys(c.get('deps'), user.id));
});

passkeyRoutes.post('/options', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyOptionsSchema);
  return idempotent(c, user.id, raw, () => registrationOptions(c.get('deps'), user, data.password));
});

passkeyRoutes.post('/add', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyAddSchema);
  return idempotent(c, user.id, raw, (record) => addPasskey(c.get('deps'), user, data, record));
});

passkeyRoutes.post('/remove', async (c) => {
  const { person: user } = await requirePerson(c);
  const { data, raw } = await strictBody(c, passkeyRemoveSchema);
  return idempotent(c, user.id, raw, (record) => removePasskey(c.get('deps'), user, data.id, record));
});

export const passkeyLoginRoutes = new Hono<AppEnv>();

passkeyLoginRoutes.post('/options', async (c) => ok(c, await signInOptions(c.get('deps'), clientIp(c))));

passkeyLoginRoutes.post('/', async (c) => {
  const data = await body(c, passkeyLoginSchema);
  return ok(c, await passkeySignIn(c.get('deps'), data.credential, clientIp(c)));
});
