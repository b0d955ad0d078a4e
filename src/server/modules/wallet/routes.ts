import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse, strictBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import { pageOf } from '../../db/paging';
import { fundLogQuery, topupListQuery, topupSchema, withdrawalListQuery, withdrawSchema } from '../../../shared/schemas/wallet';
import { fundLogRow, topupRecord, withdrawalRecord } from './records';
import { requestTopup, requestWithdrawal } from './service';

// Wallet: top-ups, withdrawals, fund logs (docs/product.md#wallet-and-ledger). Writes need a signed-in user
// (visitors: guest_forbidden) and an Idempotency-Key; lists are newest first and answer {list, total, page,
// page_size}.
export const walletRoutes = new Hono<AppEnv>();

walletRoutes.post('/topup', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, topupSchema);
  return idempotent(c, user.id, raw, () => requestTopup(c.get('deps'), user, data));
});

walletRoutes.post('/withdraw', async (c) => {
  const { user } = await requireUser(c);
  const { data, raw } = await strictBody(c, withdrawSchema);
  return idempotent(c, user.id, raw, () => requestWithdrawal(c.get('deps'), user, data));
});

walletRoutes.get('/topups', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(topupListQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('topups').where('user_id', '=', user.id);
  if (q.status) base = base.where('status', '=', q.status);
  return ok(c, await pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), (row) => topupRecord(row, c.get('deps').config)));
});

walletRoutes.get('/withdrawals', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(withdrawalListQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('withdrawals').where('user_id', '=', user.id);
  if (q.status) base = base.where('status', '=', q.status);
  return ok(c, await pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), withdrawalRecord));
});

walletRoutes.get('/fundlogs', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(fundLogQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('fund_logs').where('owner_id', '=', user.id);
  if (q.kind) base = base.where('kind', '=', q.kind);
  return ok(c, await pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), fundLogRow));
});
