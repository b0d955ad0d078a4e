import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { body, clientIp, ok } from '../../lib/http';
import { loginSchema, registerSchema, resetSchema, sendCodeSchema } from '../../../shared/schemas/auth';
import { login, register, rememberLanguage, resetPassword, sendCode, visitor } from './service';
import { requireSession, revokeSession } from '../session';
import { SOCKET_VERSION } from '../../../shared/constants';
import { socketUrl } from '../../config';
import { isoSgt } from '../../lib/clock';

export const authRoutes = new Hono<AppEnv>();

authRoutes.get('/baseconfig', (c) => {
  const { config, clock } = c.get('deps');
  const now = clock.now();
  return ok(c, {
    version: config.APP_VERSION,
    // From the configuration only, never from the request's Host or X-Forwarded-Proto: a forged header
    // (or a poisoned cache in front) must not point clients' sockets, with their tokens, elsewhere.
    socket_host: socketUrl(config),
    socket_version: SOCKET_VERSION,
    currency: 'SGD',
    server_time: isoSgt(now),
    server_time_ms: now,
    registration_open: config.REGISTRATION_OPEN,
    support_email: config.SUPPORT_EMAIL,
    company: { name: config.COMPANY_NAME, uen: config.COMPANY_UEN, address: config.COMPANY_ADDRESS },
    limits: {
      withdraw_min: config.WITHDRAW_MIN_CENTS,
      withdraw_max: config.WITHDRAW_MAX_CENTS,
      withdraw_fee: config.WITHDRAW_FEE_CENTS,
      withdraw_fee_bp: config.WITHDRAW_FEE_BP,
      topup_min: config.TOPUP_MIN_CENTS,
      presale_fee_bp: config.PRESALE_FEE_BP,
      settlement_working_days: config.SETTLEMENT_WORKING_DAYS,
      // Singapore public holidays (no withdrawals): the withdraw screen names the next possible day.
      public_holidays: config.PUBLIC_HOLIDAYS,
    },
  });
});

authRoutes.post('/sendcode', async (c) => {
  const data = await body(c, sendCodeSchema);
  await sendCode(c.get('deps'), data, clientIp(c), c.get('lang'));
  return ok(c, null);
});

authRoutes.post('/register', async (c) => {
  const data = await body(c, registerSchema);
  const info = await register(c.get('deps'), data, clientIp(c));
  await rememberLanguage(c.get('deps'), info.mem_id, c.get('lang'));
  return ok(c, info);
});

authRoutes.post('/login', async (c) => {
  const data = await body(c, loginSchema);
  const info = await login(c.get('deps'), data, clientIp(c));
  await rememberLanguage(c.get('deps'), info.mem_id, c.get('lang'));
  return ok(c, info);
});

authRoutes.post('/visitor', async (c) => ok(c, await visitor(c.get('deps'))));

authRoutes.post('/reset', async (c) => {
  const data = await body(c, resetSchema);
  await resetPassword(c.get('deps'), data, clientIp(c));
  return ok(c, null);
});

authRoutes.post('/logout', async (c) => {
  const session = await requireSession(c);
  await revokeSession(c.get('deps'), session.id);
  return ok(c, null);
});
