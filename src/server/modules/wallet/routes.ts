import { Hono } from 'hono';
import type { AppEnv } from '../../app';
import { body, input, ok, parse } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import type { Paged } from '../../../shared/api';
import { fundLogQuery, topupListQuery, topupSchema, withdrawalListQuery, withdrawSchema } from '../../../shared/schemas/wallet';
import { fundLogRow, topupRecord, withdrawalRecord } from './records';
import { requestTopup, requestWithdrawal } from './service';

// Wallet: top-ups, withdrawals, fund logs (issue 3). Writes need a signed-in user (visitors: guest_forbidden)
// and an Idempotency-Key; lists are newest first and answer {list, total, page, page_size}.
export const walletRoutes = new Hono<AppEnv>();

walletRoutes.post('/topup', async (c) => {
  const { user } = await requireUser(c);
  const data = await body(c, topupSchema);
  return idempotent(c, user.id, data, () => requestTopup(c.get('deps'), user, data));
});

walletRoutes.post('/withdraw', async (c) => {
  const { user } = await requireUser(c);
  const data = await body(c, withdrawSchema);
  // The password is not part of the stored request fingerprint: a fast hash of it must not sit in the database.
  const fingerprint = { amount: data.amount, method: data.method ?? '' };
  return idempotent(c, user.id, fingerprint, () => requestWithdrawal(c.get('deps'), user, data));
});

walletRoutes.get('/topups', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(topupListQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('topups').where('user_id', '=', user.id);
  if (q.status) base = base.where('status', '=', q.status);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const page: Paged<ReturnType<typeof topupRecord>> = { list: rows.map(topupRecord), total: Number(count.n), page: q.page, page_size: q.page_size };
  return ok(c, page);
});

walletRoutes.get('/withdrawals', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(withdrawalListQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('withdrawals').where('user_id', '=', user.id);
  if (q.status) base = base.where('status', '=', q.status);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const page: Paged<ReturnType<typeof withdrawalRecord>> = { list: rows.map(withdrawalRecord), total: Number(count.n), page: q.page, page_size: q.page_size };
  return ok(c, page);
});

walletRoutes.get('/fundlogs', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(fundLogQuery, await input(c));
  const { db } = c.get('deps');
  let base = db.selectFrom('fund_logs').where('owner_id', '=', user.id);
  if (q.kind) base = base.where('kind', '=', q.kind);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const page: Paged<ReturnType<typeof fundLogRow>> = { list: rows.map(fundLogRow), total: Number(count.n), page: q.page, page_size: q.page_size };
  return ok(c, page);
});
