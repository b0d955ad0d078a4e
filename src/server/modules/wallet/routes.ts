import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import { fundLogQuery, topupListQuery, topupSchema, withdrawalListQuery, withdrawSchema } from '../../../shared/schemas/wallet';
import { fundLogsOf, requestTopup, requestWithdrawal, requestWithdrawalApproval, topupsOf, withdrawalsOf } from './service';
import { approvalPath } from '../user/approval-requests';
import { markOwnerAlone } from '../../lib/activity';

// Wallet: top-ups, withdrawals, fund logs (docs/product.md#wallet-and-ledger). Writes need a signed-in user
// (visitors: guest_forbidden) and an Idempotency-Key; lists are newest first and answer {list, total, page,
// page_size}.
export const walletRoutes = new Hono<AppEnv>();

walletRoutes.post('/topup', async (c) => {
  const { user } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, topupSchema);
  return idempotent(c, user.id, raw, (record) => requestTopup(c.get('deps'), user, data, record));
});

// A member's withdrawal above the organisation's threshold waits for an approver (docs/product.md#approvals).
walletRoutes.post('/withdraw', async (c) => {
  const { user, session } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, withdrawSchema);
  const deps = c.get('deps');
  const path = await approvalPath(deps.db, session.acting, 'withdraw', data.amount);
  if (path === 'alone') markOwnerAlone(c);
  return idempotent(c, user.id, raw, async (record) =>
    path === 'request' && session.acting ? requestWithdrawalApproval(deps, user, session.acting, data, record) : requestWithdrawal(deps, user, data, record),
  );
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
