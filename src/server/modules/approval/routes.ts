import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { AppError, input, ok, parse, strictBody } from '../../lib/http';
import { approvalApproveSchema, approvalDecideSchema, approvalListQuery, approvalThresholdsSchema } from '../../../shared/schemas/approval';
import { requireUser, type Acting, type Capability } from '../session';
import { approvalsOf, cancelRequest, checkDecidable, decide, setThresholds, thresholdsOfAccount } from './service';
import { checkThenVerify } from '../user/trade-password';

// Approvals (docs/product.md#approvals), mounted at /h5/api/api/approval. Every member of the organisation
// reads its requests and thresholds; approvers (and the owner) approve or decline others' requests; the
// owner sets the thresholds. Writes take an Idempotency-Key.
export const approvalRoutes = new Hono<AppEnv>();

async function requireActing(c: Context<AppEnv>, need?: Capability): Promise<Acting> {
  const { session } = await requireUser(c, need);
  if (!session.acting) throw new AppError('org_not_member');
  return session.acting;
}

approvalRoutes.get('/list', async (c) => {
  const acting = await requireActing(c);
  return ok(c, await approvalsOf(c.get('deps'), acting.accountId, parse(approvalListQuery, await input(c))));
});

// Approving checks the approver's own payment password (payerOf: the member acting, or the organisation's
// login acting as itself) after the request's cheap checks, so a request that cannot be decided costs no
// attempt; a wrong one counts toward that person's lock. Declining moves nothing out and asks none.
approvalRoutes.post('/approve', async (c) => {
  const { session, user } = await requireUser(c, 'approve');
  const acting = session.acting;
  if (!acting) throw new AppError('org_not_member');
  const { data, raw } = await strictBody(c, approvalApproveSchema);
  const deps = c.get('deps');
  return idempotent(c, acting.accountId, raw, async (record) => {
    await checkThenVerify(deps, user, data.password, 'trade_password_incorrect', () => checkDecidable(deps, acting, data.id));
    return decide(deps, acting, data.id, true, record);
  });
});

approvalRoutes.post('/decline', async (c) => {
  const acting = await requireActing(c, 'approve');
  const { data, raw } = await strictBody(c, approvalDecideSchema);
  return idempotent(c, acting.accountId, raw, (record) => decide(c.get('deps'), acting, data.id, false, record));
});

// The maker (who asked with `trade`) cancels their own waiting request.
approvalRoutes.post('/cancel', async (c) => {
  const acting = await requireActing(c, 'trade');
  const { data, raw } = await strictBody(c, approvalDecideSchema);
  return idempotent(c, acting.accountId, raw, (record) => cancelRequest(c.get('deps'), acting, data.id, record));
});

approvalRoutes.get('/thresholds', async (c) => {
  const acting = await requireActing(c);
  return ok(c, await thresholdsOfAccount(c.get('deps'), acting));
});

approvalRoutes.post('/thresholds', async (c) => {
  const acting = await requireActing(c, 'manage');
  const { data, raw } = await strictBody(c, approvalThresholdsSchema);
  return idempotent(c, acting.accountId, raw, (record) => setThresholds(c.get('deps'), acting, data, record));
});
