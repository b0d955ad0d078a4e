import { Hono } from 'hono';
import type { AppEnv } from '../../app';
import { ok } from '../../lib/http';
import { requireSession } from '../session';
import { walletOf } from '../../ledger/ledger';
import type { UserInfo } from '../../../shared/schemas/user';

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
