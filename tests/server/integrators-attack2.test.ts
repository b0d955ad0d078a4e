// An attacker's second pass over the organisation's new writes: API keys and /v1, webhooks, invitations,
// approvals, the activity export. Real server, real HTTP. F* probes hold the fixes of findings (each failed
// before its fix), H* the attacks the code withstands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { PATHS } from '../../src/shared/api';
import { ERRORS, errorMessage, type ErrorKey, type Lang } from '../../src/shared/errors';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, marketSnapshot, newKey, topup, TRADE_PASSWORD } from './market-helpers';
import { addMember, GENEROUS, LANGS, makeOrg, ORG_PASSWORD, orgSnapshot, write, type Member, type Org } from './org-helpers';
import { holder, makeRetirableProject } from './retire-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS });
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

type Scope = 'read' | 'buy' | 'retire' | 'webhooks';

function createKey(token: string, mode: 'test' | 'live', scopes: Scope[], password: string, lang?: Lang) {
  return s.api('POST', PATHS.developerKeys, { name: `${mode} key`, mode, scopes, password }, { token, lang });
}

interface V1Answer {
  status: number;
  body: any;
}

async function v1(method: 'GET' | 'POST', path: string, key: string, body?: Record<string, unknown>, lang?: string): Promise<V1Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (lang) headers['Accept-Language'] = lang;
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    headers['Idempotency-Key'] = newKey();
  }
  const res = await fetch(`${s.url}/v1${path}`, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function expectProblem(a: V1Answer, status: number, key: ErrorKey, lang: Lang = 'en') {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  expect(a.body).toMatchObject({ status, code: ERRORS[key].code, detail: errorMessage(key, lang) });
}

/** Live money, credits, orders and retirements: what a refused key write must leave as it was. */
async function liveSnapshot() {
  const m = await marketSnapshot(s);
  return {
    ledger: m.ledger_accounts.filter((a) => a.owner_id >= 0 && !a.name.startsWith('sandbox_')),
    orders: m.orders,
    credit_holdings: m.credit_holdings,
    retirements: await s.db.selectFrom('retirements').selectAll().execute(),
    // A key's last use (time and address) is written by any request it makes, refused or not.
    api_keys: (await s.db.selectFrom('api_keys').selectAll().execute()).map((k) => ({ ...k, last_used_at: null, last_used_ip: null })),
  };
}

describe('F1 an admin, who may not trade, spends the organisation money through a live key', () => {
  let org: Org;
  let admin: Member;
  beforeAll(async () => {
    org = await makeOrg(s, 'Keyed Pte Ltd');
    admin = await addMember(s, org, 'admin');
    await topup(s, org.id, 1_000_000);
  });

  it('F1a: an admin cannot make a live key that buys or retires (en and cn), and nothing changes', async () => {
    for (const scopes of [['read', 'buy'], ['retire'], ['read', 'buy', 'retire', 'webhooks']] as Scope[][]) {
      for (const lang of LANGS) {
        const before = await liveSnapshot();
        const res = await createKey(admin.orgToken, 'live', scopes, TRADE_PASSWORD, lang);
        expect({ code: res.code, msg: res.msg }, `${scopes.join(' ')} in ${lang}`).toEqual(refusal('api_key_trade_forbidden', lang));
        expect(await liveSnapshot()).toEqual(before);
      }
    }
    // What an admin's role allows stays: a live read key, and test keys of every scope.
    expect((await createKey(admin.orgToken, 'live', ['read', 'webhooks'], TRADE_PASSWORD)).code).toBe(0);
    expect((await createKey(admin.orgToken, 'test', ['read', 'buy', 'retire'], TRADE_PASSWORD)).code).toBe(0);
  });

  it("F1b: an admin cannot rotate the owner's live buy key into a secret of her own", async () => {
    const owners = await createKey(org.owner.token, 'live', ['read', 'buy'], ORG_PASSWORD);
    expect(owners.code, owners.msg).toBe(0);
    for (const lang of LANGS) {
      const before = await liveSnapshot();
      const res = await s.api('POST', PATHS.developerKeysRotate, { id: owners.data.id, password: TRADE_PASSWORD }, { token: admin.orgToken, lang });
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('api_key_trade_forbidden', lang));
      expect(await liveSnapshot()).toEqual(before);
    }
    // The owner's key buys: the owner trades.
    const pid = await makeProject(s);
    expect((await v1('POST', '/orders', owners.data.key as string, { project_id: pid, tons: 1 })).status).toBe(201);
  });

  it('F1c: a live buy key made before, whose maker does not trade (an admin), buys nothing and retires nothing', async () => {
    // A key as one made before the rule: written by the service for the owner, then handed to the admin.
    const made = await createKey(org.owner.token, 'live', ['read', 'buy', 'retire'], ORG_PASSWORD);
    expect(made.code, made.msg).toBe(0);
    await s.db.updateTable('api_keys').set({ created_by: admin.id }).where('id', '=', made.data.id).execute();
    const pid = await makeRetirableProject(s);
    for (const lang of LANGS) {
      const before = await liveSnapshot();
      expectProblem(await v1('POST', '/orders', made.data.key as string, { project_id: pid, tons: 1 }, lang === 'cn' ? 'zh-CN' : 'en'), 403, 'api_key_trade_forbidden', lang);
      expectProblem(
        await v1('POST', '/retirements', made.data.key as string, { project_id: pid, tons: 1, beneficiary: 'X', reason: 'Y', privacy: 'public' }, lang === 'cn' ? 'zh-CN' : 'en'),
        403,
        'api_key_trade_forbidden',
        lang,
      );
      expect(await liveSnapshot()).toEqual(before);
    }
    // It still reads.
    expect((await v1('GET', '/balance', made.data.key as string)).status).toBe(200);
  });
});

describe('F2 numbers past what the database holds', () => {
  it('F2a: /v1 ids and an API key expiry beyond a bigint are refused as invalid input, not a server fault', async () => {
    const u = await makeUser(s);
    const made = await createKey(u.token, 'test', ['read', 'buy', 'retire'], TRADE_PASSWORD);
    expect(made.code, made.msg).toBe(0);
    const key = made.data.key as string;
    for (const id of [1e300, 2 ** 63, 2 ** 53]) {
      for (const [path, body] of [
        ['/quotes', { project_id: id, tons: 1 }],
        ['/orders', { project_id: id, tons: 1 }],
        ['/retirements', { project_id: id, tons: 1, beneficiary: 'X', reason: 'Y' }],
      ] as const) {
        const before = await liveSnapshot();
        const a = await v1('POST', path, key, body);
        expect(a.status, `${path} ${id}: ${JSON.stringify(a.body)}`).toBe(400);
        expect(a.body).toMatchObject({ code: ERRORS.invalid_request.code, field: 'project_id' });
        expect(await liveSnapshot()).toEqual(before);
      }
    }
    for (const lang of LANGS) {
      const before = await liveSnapshot();
      const res = await s.api('POST', PATHS.developerKeys, { name: 'far', mode: 'test', scopes: ['read'], password: TRADE_PASSWORD, expires_at: 1e300 }, { token: u.token, lang });
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('invalid_request', lang));
      expect(await liveSnapshot()).toEqual(before);
    }
  });

  it('F2b: an id past a safe integer in the app (a webhook, an organisation member) is the field\'s refusal', async () => {
    const org = await makeOrg(s, 'Big Ids Pte Ltd');
    for (const lang of LANGS) {
      for (const [path, body] of [
        [PATHS.webhookRotate, { id: 1e300 }],
        [PATHS.webhookResend, { delivery_id: 2 ** 63 }],
        [PATHS.orgRole, { user_id: 1e19, role: 'viewer' }],
        [PATHS.orgRemove, { user_id: 1e300 }],
        [PATHS.developerKeysRevoke, { id: 1e300 }],
      ] as const) {
        const before = await orgSnapshot(s);
        const res = await write(s, path, org.owner.token, body, { lang });
        expect({ code: res.code, msg: res.msg }, path).toEqual(refusal('invalid_request', lang));
        expect(await orgSnapshot(s)).toEqual(before);
      }
    }
  });

  it('H: a test key retiring in a project that does not exist is refused as not retirable', async () => {
    const u = await makeUser(s);
    const made = await createKey(u.token, 'test', ['retire'], TRADE_PASSWORD);
    const a = await v1('POST', '/retirements', made.data.key as string, { project_id: 987654321, tons: 1, beneficiary: 'X', reason: 'Y' });
    expect(a.status, JSON.stringify(a.body)).toBe(422);
    expect(a.body.code).toBe(ERRORS.retire_not_retirable.code);
  });
});

describe('/v1 bodies and duplicates', () => {
  async function rawV1(key: string, body: string, type = 'application/json', lang = 'en') {
    const res = await fetch(`${s.url}/v1/retirements`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': type, 'Idempotency-Key': newKey(), 'Accept-Language': lang }, body });
    return { status: res.status, body: (await res.json()) as { code: number; detail: string; status: number } };
  }

  it('F3: a lone surrogate or NUL in a /v1 body is malformed input (400), as the document says, in en and zh', async () => {
    const { u, pid } = await holder(s, 5);
    const made = await createKey(u.token, 'live', ['retire'], TRADE_PASSWORD);
    for (const [lang, accept] of [['en', 'en'], ['cn', 'zh-CN']] as const) {
      for (const text of ['"\\ud800"', '"a\\u0000b"']) {
        const before = await liveSnapshot();
        const a = await rawV1(made.data.key as string, `{"project_id":${pid},"tons":1,"beneficiary":${text},"reason":"r"}`, 'application/json', accept);
        expect(a.status, JSON.stringify(a.body)).toBe(400);
        expect(a.body).toMatchObject({ status: 400, code: ERRORS.text_malformed.code, detail: errorMessage('text_malformed', lang) });
        expect(await liveSnapshot()).toEqual(before);
      }
    }
  });

  it('H: prototype keys, truncated JSON, an array, a wrong content type and a body past 16 KiB are refused with nothing changed', async () => {
    const { u, pid } = await holder(s, 5);
    const key = (await createKey(u.token, 'live', ['retire'], TRADE_PASSWORD)).data.key as string;
    const before = await liveSnapshot();
    const ok = `{"project_id":${pid},"tons":1,"beneficiary":"b","reason":"r"}`;
    for (const [body, type, status, code] of [
      [`{"__proto__":{"x":1},"project_id":${pid},"tons":1,"beneficiary":"b","reason":"r"}`, 'application/json', 400, ERRORS.invalid_request.code],
      [`{"constructor":1,"project_id":${pid},"tons":1,"beneficiary":"b","reason":"r"}`, 'application/json', 400, ERRORS.invalid_request.code],
      [ok.slice(0, -3), 'application/json', 400, ERRORS.invalid_request.code],
      ['[1]', 'application/json', 400, ERRORS.invalid_request.code],
      [ok, 'text/plain', 400, ERRORS.required.code],
      [JSON.stringify({ project_id: pid, tons: 1, beneficiary: 'b', reason: 'r'.repeat(20_000) }), 'application/json', 400, ERRORS.invalid_request.code],
    ] as const) {
      const a = await rawV1(key, body, type);
      expect({ status: a.status, code: a.body.code }, body.slice(0, 60)).toEqual({ status, code });
    }
    expect(await liveSnapshot()).toEqual(before);
  });

  it('H: 40 parallel live retirements with one key retire once; 40 with their own keys retire no more than held', async () => {
    const { u, pid } = await holder(s, 10);
    const key = (await createKey(u.token, 'live', ['retire'], TRADE_PASSWORD)).data.key as string;
    const idem = newKey();
    const body = JSON.stringify({ project_id: pid, tons: 3, beneficiary: 'Once', reason: 'r' });
    const same = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${s.url}/v1/retirements`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': idem }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string } }))),
    );
    expect(same.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    expect(new Set(same.map((r) => r.body.id)).size).toBe(1);
    const many = await Promise.all(Array.from({ length: 40 }, () => v1('POST', '/retirements', key, { project_id: pid, tons: 1, beneficiary: 'Many', reason: 'r' })));
    expect(many.filter((r) => r.status === 201)).toHaveLength(7);
    expect(many.filter((r) => r.status !== 201).every((r) => r.status === 422)).toBe(true);
    const retired = await s.db.selectFrom('retirements').select('tons').where('user_id', '=', u.id).execute();
    expect(retired.reduce((n, r) => n + r.tons, 0)).toBe(10);
  });
});

describe('keys under 40 parallel requests', () => {
  it('H: 40 parallel creations with a wrong payment password count to the lock and make no key; 40 right ones stop at the cap', async () => {
    const u = await makeUser(s);
    const wrong = await Promise.all(Array.from({ length: 40 }, () => createKey(u.token, 'test', ['read'], 'Wrong#Pay2026x')));
    expect(wrong.every((r) => r.code !== 0)).toBe(true);
    const row = await s.db.selectFrom('users').select(['trade_fails', 'trade_locked']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.trade_locked).toBeTruthy();
    expect(wrong.filter((r) => r.code === ERRORS.project_password_incorrect.code).length).toBeLessThanOrEqual(4);
    expect(await s.db.selectFrom('api_keys').select('id').where('account_id', '=', u.id).execute()).toHaveLength(0);
    // Locked: even the right password makes nothing now.
    expect((await createKey(u.token, 'test', ['read'], TRADE_PASSWORD)).code).not.toBe(0);

    const v = await makeUser(s);
    const made = await Promise.all(Array.from({ length: 40 }, () => createKey(v.token, 'live', ['read'], TRADE_PASSWORD)));
    expect(made.filter((r) => r.code === 0)).toHaveLength(20);
    expect(made.filter((r) => r.code !== 0).every((r) => r.code === ERRORS.api_keys_full.code)).toBe(true);
  });

  it('F6: 40 parallel revocations of one key leave one revocation and one activity row; 40 sandbox top-ups with one Idempotency-Key fund once', async () => {
    const org = await makeOrg(s, 'Parallel Keys Pte Ltd');
    const made = await createKey(org.owner.token, 'test', ['read'], ORG_PASSWORD);
    const revokes = await Promise.all(Array.from({ length: 40 }, () => s.api('POST', PATHS.developerKeysRevoke, { id: made.data.id }, { token: org.owner.token, idempotencyKey: newKey() })));
    expect(revokes.filter((r) => r.code === 0)).toHaveLength(1);
    expect(revokes.filter((r) => r.code !== 0).every((r) => r.code === ERRORS.api_key_revoked.code)).toBe(true);
    // One activity row for the one revocation (it was written twice: by the service and by the idempotent write).
    const rows = await s.db.selectFrom('organisation_activity').select(['member_id', 'detail']).where('account_id', '=', org.id).where('action', '=', 'developer.keys.revoke').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.member_id).toBe(org.id);
    // The export names the revoked key.
    const csv = await (await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: org.owner.token }, query: 'lang=en' })).text();
    expect(csv).toContain(`"Revoked an API key","test key ${made.data.prefix as string}"`);
    const key = newKey();
    const tops = await Promise.all(Array.from({ length: 40 }, () => s.api('POST', PATHS.developerSandboxTopup, {}, { token: org.owner.token, idempotencyKey: key })));
    expect(tops.every((r) => r.code === 0)).toBe(true);
    expect(new Set(tops.map((r) => r.data.available))).toEqual(new Set([2_000_000]));
  });
});
