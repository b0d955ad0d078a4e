import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, ok, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { apiKeyCreateSchema, apiKeyRevokeSchema, apiKeyRotateSchema, sandboxTopupSchema } from '../../../shared/schemas/developer';
import { requireUser, roleCan, type Acting, type Session, type User } from '../session';
import { createKey, listKeys, revokeKey, rotateKey, topupSandbox } from './keys';

// The Developers screen's endpoints (docs/product.md#integrators), mounted at /h5/api/api/developer: the
// account's API keys (create with the secret shown once, list, revoke, rotate) and the sandbox's play money.
// A person manages her own account's keys; in an organisation, the owner and admins (the `manage` role).
// Creating and rotating answer a secret, so, like a sign-in, they take no Idempotency-Key: a stored answer
// would keep the secret. Revoking and the play money take one, as every other write does.
export const developerRoutes = new Hono<AppEnv>();

async function requireKeyManager(c: Context<AppEnv>): Promise<{ user: User; acting: Acting | null; session: Session }> {
  const { session, user } = await requireUser(c, 'manage').catch((err: unknown) => {
    throw err instanceof AppError && err.key === 'org_role_forbidden' ? new AppError('api_key_forbidden') : err;
  });
  if (session.acting && !roleCan(session.acting.role, 'manage')) throw new AppError('api_key_forbidden');
  return { user, acting: session.acting, session };
}

developerRoutes.get('/keys', async (c) => {
  const { user } = await requireKeyManager(c);
  return ok(c, await listKeys(c.get('deps'), user.id));
});

developerRoutes.post('/keys', async (c) => {
  const { user, acting } = await requireKeyManager(c);
  const { data } = await strictBody(c, apiKeyCreateSchema);
  return ok(c, await createKey(c.get('deps'), user, acting, data));
});

developerRoutes.post('/keys/revoke', async (c) => {
  const { user } = await requireKeyManager(c);
  const { data, raw } = await strictBody(c, apiKeyRevokeSchema);
  return idempotent(c, user.id, raw, (record) => revokeKey(c.get('deps'), user, data.id, record));
});

developerRoutes.post('/keys/rotate', async (c) => {
  const { user, acting } = await requireKeyManager(c);
  const { data } = await strictBody(c, apiKeyRotateSchema);
  return ok(c, await rotateKey(c.get('deps'), user, acting, data));
});

developerRoutes.post('/sandbox/topup', async (c) => {
  const { user } = await requireKeyManager(c);
  const { raw } = await strictBody(c, sandboxTopupSchema);
  return idempotent(c, user.id, raw, (record) => topupSandbox(c.get('deps'), user.id, record));
});
