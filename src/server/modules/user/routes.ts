import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requirePerson, requireSession, requireUser } from '../session';
import { bankCardSchema, loginPasswordChangeSchema, profileSchema, withdrawPasswordSetSchema } from '../../../shared/schemas/wallet';
import { bindPayoutAccount } from './card';
import { payoutCard, userInfo } from './service';
import { changeLoginPassword, setWithdrawPassword, updateProfile } from './settings';
import { markRead, noticesOf } from './notifications';
import { pageSchema } from '../../../shared/schemas/common';
import { noticeReadSchema } from '../../../shared/schemas/inbox';
import { membershipOf } from './membership';
import { pushKey, subscribePush, unsubscribePush } from './push';
import { pushSubscribeSchema, pushUnsubscribeSchema } from '../../../shared/schemas/push';

export const userRoutes = new Hono<AppEnv>();

userRoutes.get('/info', async (c) => {
  const session = await requireSession(c);
  return ok(c, await userInfo(c.get('deps'), session.user));
});

userRoutes.get('/membership', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await membershipOf(c.get('deps'), user));
});

// ---- Account settings (docs/product.md#accounts). Writes: a signed-in user, an Idempotency-Key, and only
// known fields. The key's fingerprint covers every field, passwords included (keyed hash, see
// lib/idempotency.ts).

// The login and payment passwords are the person's own, also while acting for an organisation.
userRoutes.post('/withdpwd', async (c) => {
  const { person } = await requirePerson(c);
  const { data, raw } = await strictBody(c, withdrawPasswordSetSchema);
  return idempotent(c, person.id, raw, (record) => setWithdrawPassword(c.get('deps'), person, data, record));
});

userRoutes.post('/loginpwd', async (c) => {
  const { person, session } = await requirePerson(c);
  const { data, raw } = await strictBody(c, loginPasswordChangeSchema);
  return idempotent(c, person.id, raw, (record) => changeLoginPassword(c.get('deps'), person, session.id, data, record));
});

userRoutes.post('/profile', async (c) => {
  const { user } = await requireUser(c, 'manage');
  const { data, raw } = await strictBody(c, profileSchema);
  return idempotent(c, user.id, raw, (record) => updateProfile(c.get('deps'), user, data, record));
});

userRoutes.get('/card', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await payoutCard(c.get('deps'), user.id));
});

userRoutes.post('/card', async (c) => {
  const { user } = await requireUser(c, 'manage');
  const { data, raw } = await strictBody(c, bankCardSchema);
  return idempotent(c, user.id, raw, (record) => bindPayoutAccount(c.get('deps'), user, data, record));
});

// ---- The notifications inbox: list with the unread count, mark read (notifications.ts).

userRoutes.get('/notifications', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await noticesOf(c.get('deps'), user, parse(pageSchema, await input(c))));
});

userRoutes.post('/notifications/read', async (c) => {
  const { user } = await requireUser(c, 'inbox');
  const { data, raw } = await strictBody(c, noticeReadSchema);
  return idempotent(c, user.id, raw, (record) => markRead(c.get('deps'), user, data.id ?? null, record));
});

// ---- Web Push on this device (push.ts): the key to subscribe with, turn on, turn off.

userRoutes.get('/push/key', async (c) => {
  await requireUser(c);
  return ok(c, pushKey(c.get('deps')));
});

userRoutes.post('/push/subscribe', async (c) => {
  const { session, user } = await requireUser(c, 'inbox');
  const { data, raw } = await strictBody(c, pushSubscribeSchema);
  const person = session.acting?.member ?? user;
  return idempotent(c, user.id, raw, (record) => subscribePush(c.get('deps'), user, person, { ...data, lang: c.get('lang') }, record));
});

userRoutes.post('/push/unsubscribe', async (c) => {
  const { session, user } = await requireUser(c, 'inbox');
  const { data, raw } = await strictBody(c, pushUnsubscribeSchema);
  const person = session.acting?.member ?? user;
  return idempotent(c, user.id, raw, (record) => unsubscribePush(c.get('deps'), user, person, data.endpoint, record));
});
