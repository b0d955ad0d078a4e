import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ok, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireSession, requireUser } from '../session';
import { walletOf } from '../../ledger/ledger';
import type { UserInfo } from '../../../shared/schemas/user';
import { bankCardSchema, loginPasswordChangeSchema, profileSchema, withdrawPasswordSetSchema } from '../../../shared/schemas/wallet';
import { bankCardView, bindPayoutAccount, payoutAccountOf } from './card';
import { changeLoginPassword, setWithdrawPassword, updateProfile } from './settings';
import { notificationRoutes } from './notifications';
import { membershipOf } from './membership';

export const userRoutes = new Hono<AppEnv>();

userRoutes.get('/info', async (c) => {
  const session = await requireSession(c);
  const { db } = c.get('deps');
  const u = session.user;
  if (!u) {
    const guest: UserInfo = { mem_id: 0, type: 'visitor', email: '', first_name: '', last_name: '', realname: '', mobile: '', avatar: '', company: '', uen: '', ic_number: '', invite_code: '', grade: 0, credit_score: 'excellent', risk: false, locked: false, login_locked: false, has_withdraw_password: false, joined_at: 0, wallet: null };
    return ok(c, guest);
  }
  const info: UserInfo = {
    mem_id: u.id,
    type: u.type,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    realname: [u.first_name, u.last_name].filter(Boolean).join(' '),
    mobile: u.mobile,
    avatar: u.avatar,
    company: u.company,
    uen: u.uen,
    ic_number: u.ic_number,
    invite_code: u.invite_code,
    grade: u.grade,
    credit_score: u.credit_score,
    risk: u.risk === 1,
    locked: u.trade_locked === 1,
    login_locked: u.login_locked === 1,
    has_withdraw_password: u.withdraw_password_hash !== null,
    joined_at: u.created_at,
    wallet: await walletOf(db, u.id),
  };
  return ok(c, info);
});

userRoutes.get('/membership', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await membershipOf(c.get('deps'), user));
});

// ---- Account settings (docs/product.md#accounts). Writes: a signed-in user, an Idempotency-Key, and only
// known fields. The key's fingerprint covers every field, passwords included (keyed hash, see
// lib/idempotency.ts).

userRoutes.post('/withdpwd', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, withdrawPasswordSetSchema);
  return idempotent(c, user.id, raw, () => setWithdrawPassword(c.get('deps'), user, data));
});

userRoutes.post('/loginpwd', async (c) => {
  const { user, session } = await requireUser(c);
  const { data, raw } = await strictBody(c, loginPasswordChangeSchema);
  return idempotent(c, user.id, raw, () => changeLoginPassword(c.get('deps'), user, session.id, data));
});

userRoutes.post('/profile', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, profileSchema);
  return idempotent(c, user.id, raw, () => updateProfile(c.get('deps'), user, data));
});

userRoutes.get('/card', async (c) => {
  const { user } = await requireUser(c);
  const row = await payoutAccountOf(c.get('deps').db, user.id);
  return ok(c, row ? bankCardView(row) : null);
});

userRoutes.post('/card', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, bankCardSchema);
  return idempotent(c, user.id, raw, () => bindPayoutAccount(c.get('deps'), user, data));
});

// The notifications inbox: list with the unread count, mark read (notifications.ts).
userRoutes.route('/notifications', notificationRoutes);
