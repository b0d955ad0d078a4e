import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { AppError, input, ok, parse, strictBody } from '../../lib/http';
import { approvalDecideSchema, approvalListQuery, approvalThresholdsSchema } from '../../../shared/schemas/approval';
import { requireUser, type Acting, type Capability } from '../session';
import { approvalsOf, decide, setThresholds, thresholdsOfAccount } from './service';

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

for (const [path, approve] of [['/approve', true], ['/decline', false]] as const) {
  approvalRoutes.post(path, async (c) => {
    const acting = await requireActing(c, 'approve');
    const { data, raw } = await strictBody(c, approvalDecideSchema);
    return idempotent(c, acting.accountId, raw, (record) => decide(c.get('deps'), acting, data.id, approve, record));
  });
}

approvalRoutes.get('/thresholds', async (c) => {
  const acting = await requireActing(c);
  return ok(c, await thresholdsOfAccount(c.get('deps'), acting.accountId));
});

approvalRoutes.post('/thresholds', async (c) => {
  const acting = await requireActing(c, 'manage');
  const { data, raw } = await strictBody(c, approvalThresholdsSchema);
  return idempotent(c, acting.accountId, raw, (record) => setThresholds(c.get('deps'), acting, data, record));
});
