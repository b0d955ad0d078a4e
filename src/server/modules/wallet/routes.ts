import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import { fundLogQuery, topupListQuery, topupSchema, withdrawalListQuery, withdrawSchema } from '../../../shared/schemas/wallet';
import { fundLogsOf, requestTopup, requestWithdrawal, topupsOf, withdrawalsOf } from './service';

// Wallet: top-ups, withdrawals, fund logs (docs/product.md#wallet-and-ledger). Writes need a signed-in user
// (visitors: guest_forbidden) and an Idempotency-Key; lists are newest first and answer {list, total, page,
// page_size}.
export const walletRoutes = new Hono<AppEnv>();

walletRoutes.post('/topup', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, topupSchema);
  return idempotent(c, user.id, raw, (record) => requestTopup(c.get('deps'), user, data, record));
});

walletRoutes.post('/withdraw', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, withdrawSchema);
  return idempotent(c, user.id, raw, (record) => requestWithdrawal(c.get('deps'), user, data, record));
});

walletRoutes.get('/topups', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await topupsOf(c.get('deps'), user.id, parse(topupListQuery, await input(c))));
});

walletRoutes.get('/withdrawals', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await withdrawalsOf(c.get('deps'), user.id, parse(withdrawalListQuery, await input(c))));
});

walletRoutes.get('/fundlogs', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await fundLogsOf(c.get('deps'), user.id, parse(fundLogQuery, await input(c))));
});
