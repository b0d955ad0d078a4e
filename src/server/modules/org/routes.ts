import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { AppError, input, ok, parse, strictBody } from '../../lib/http';
import { pageSchema } from '../../../shared/schemas/common';
import { orgInvitationQuery, orgInviteSchema, orgJoinSchema, orgRemoveSchema, orgRoleSchema, orgSwitchSchema } from '../../../shared/schemas/org';
import { requirePerson, requireUser, roleCan, type Acting, type Capability } from '../session';
import { activity, activityCsv, members, mine } from './queries';
import { invitationOf, invite, join, removeMember, setRole, switchTo } from './service';

// Organisations (docs/product.md#organisations), mounted at /h5/api/api/org. Every member reads the
// organisation's members; owner and admins invite, change roles, remove, and read or export the activity
// log. Writes take an Idempotency-Key, except the context switch, which is a sign-in.
export const orgRoutes = new Hono<AppEnv>();

/** The organisation the request acts for, with the role checked when `need` is given. */
async function requireActing(c: Context<AppEnv>, need?: Capability): Promise<Acting> {
  const { session } = await requireUser(c, need);
  if (!session.acting) throw new AppError('org_not_member');
  return session.acting;
}

/** Reads for owner and admins only (the activity log). */
async function requireManager(c: Context<AppEnv>): Promise<Acting> {
  const acting = await requireActing(c);
  if (!roleCan(acting.role, 'manage')) throw new AppError('org_role_forbidden');
  return acting;
}

orgRoutes.get('/mine', async (c) => {
  const { session, person } = await requirePerson(c);
  return ok(c, await mine(c.get('deps'), session, person));
});

orgRoutes.post('/switch', async (c) => {
  const { session, person } = await requirePerson(c);
  const { data } = await strictBody(c, orgSwitchSchema);
  return ok(c, await switchTo(c.get('deps'), session, person, data.account_id));
});

orgRoutes.get('/members', async (c) => {
  const acting = await requireActing(c);
  return ok(c, await members(c.get('deps'), acting, roleCan(acting.role, 'manage')));
});

orgRoutes.post('/invite', async (c) => {
  const acting = await requireActing(c, 'manage');
  const { data, raw } = await strictBody(c, orgInviteSchema);
  return idempotent(c, acting.accountId, raw, (record) => invite(c.get('deps'), acting, data, record));
});

orgRoutes.get('/invitation', async (c) => {
  await requirePerson(c);
  return ok(c, await invitationOf(c.get('deps'), parse(orgInvitationQuery, await input(c)).token));
});

orgRoutes.post('/join', async (c) => {
  const { person } = await requirePerson(c);
  const { data, raw } = await strictBody(c, orgJoinSchema);
  return idempotent(c, person.id, raw, (record) => join(c.get('deps'), person, data.token, record));
});

orgRoutes.post('/role', async (c) => {
  const acting = await requireActing(c, 'manage');
  const { data, raw } = await strictBody(c, orgRoleSchema);
  return idempotent(c, acting.accountId, raw, (record) => setRole(c.get('deps'), acting, data, record));
});

orgRoutes.post('/remove', async (c) => {
  const acting = await requireActing(c, 'manage');
  const { data, raw } = await strictBody(c, orgRemoveSchema);
  return idempotent(c, acting.accountId, raw, (record) => removeMember(c.get('deps'), acting, data.user_id, record));
});

orgRoutes.get('/activity', async (c) => {
  const acting = await requireManager(c);
  return ok(c, await activity(c.get('deps'), acting.accountId, parse(pageSchema, await input(c))));
});

orgRoutes.get('/activity.csv', async (c) => {
  const acting = await requireManager(c);
  const csv = await activityCsv(c.get('deps'), acting.accountId, c.get('lang'));
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="canopy-activity-${acting.accountId}.csv"`,
  });
});
