// What one member of an organisation does is hers, not a colleague's (docs/decisions/0040-per-person-scopes.md):
// her Idempotency-Keys, her push devices, her waiting approval requests, her name in the member list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { down as scopeDown, up as scopeUp } from '../../src/server/db/migrations/036-idempotency-scope';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeProject, newKey, topup } from './market-helpers';
import { addMember, GENEROUS, makeOrg, TRADE_PASSWORD, write } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

describe("an Idempotency-Key is the member's own", () => {
  it('two members of one organisation who send the same key each get their own effect', async () => {
    const org = await makeOrg(s);
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s, { total_tons: 10_000 });
    const a = await addMember(s, org, 'buyer');
    const b = await addMember(s, org, 'buyer');
    const key = newKey();
    const buy = { project_id: pid, tons: 1, password: TRADE_PASSWORD };
    const first = await write(s, PATHS.orderBuy, a.orgToken, buy, { key });
    expect(first.code, first.msg).toBe(0);
    const second = await s.api('POST', PATHS.orderBuy, buy, { token: b.orgToken, idempotencyKey: key });
    expect(second.code, second.msg).toBe(0);
    expect(second.data).not.toEqual(first.data);
    const orders = await s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute();
    expect(orders).toHaveLength(2);
    const log = await s.db.selectFrom('organisation_activity').select('member_id').where('account_id', '=', org.id).where('action', '=', 'order.buy').orderBy('id').execute();
    expect(log.map((r) => r.member_id)).toEqual([a.id, b.id]);
    // Her own retry still gets her first answer and no second effect.
    const again = await write(s, PATHS.orderBuy, a.orgToken, buy, { key });
    expect(again.data).toEqual(first.data);
    expect(await s.db.selectFrom('orders').select('id').where('user_id', '=', org.id).execute()).toHaveLength(2);
  });

  it("the owner's key and a member's key do not meet either, and another key payload is still refused for its owner", async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const key = newKey();
    const x = await write(s, PATHS.orgInvite, org.owner.token, { email: `x.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(x.code, x.msg).toBe(0);
    const y = await write(s, PATHS.orgInvite, admin.orgToken, { email: `y.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(y.code, y.msg).toBe(0);
    const z = await write(s, PATHS.orgInvite, admin.orgToken, { email: `z.${process.pid}@corp.example.sg`, role: 'viewer' }, { key });
    expect(z.code).toBe(ERRORS.idempotency_mismatch.code);
    const invited = await s.db.selectFrom('organisation_invitations').select('email').where('account_id', '=', org.id).where('email', 'like', '_.%').orderBy('id').execute();
    expect(invited.map((r) => r.email)).toEqual([`x.${process.pid}@corp.example.sg`, `y.${process.pid}@corp.example.sg`]);
  });

  it('migration 036 keeps the stored keys (its down keeps the first of two members who shared a key)', async () => {
    const keys = () => s.db.selectFrom('idempotency_keys').select(['id', 'user_id', 'key', 'response']).orderBy('id').execute();
    const before = await keys();
    const shared = before.filter((r, i) => before.findIndex((o) => o.user_id === r.user_id && o.key === r.key) !== i);
    expect(shared.length).toBeGreaterThan(0);
    await scopeDown(s.db);
    expect(await keys()).toEqual(before.filter((r) => !shared.includes(r)));
    await scopeUp(s.db);
    expect(await keys()).toEqual(before.filter((r) => !shared.includes(r)));
    const scopes = await s.db.selectFrom('idempotency_keys').select('scope').distinct().execute();
    expect(scopes).toEqual([{ scope: '' }]);
  });
});
