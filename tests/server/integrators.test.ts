// The integrators' API over real HTTP (docs/product.md#integrators): API keys made with the payment
// password (only a hash kept), /v1 with bearer keys, status codes and problem details in en and zh, the
// Idempotency-Key on every POST scoped to the key, the RateLimit headers, and the test mode's sandbox that
// never touches live money, supply or figures (and the reverse), with an attacker's probes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { v1Document } from '../../src/server/modules/v1/openapi';
import { checkLedger } from '../../src/server/ledger/ledger';
import { sha256 } from '../../src/server/lib/crypto';
import { PATHS } from '../../src/shared/api';
import { ERRORS, errorMessage, type ErrorKey, type Lang } from '../../src/shared/errors';
import { DAY, refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, marketSnapshot, newKey, TRADE_PASSWORD, walletOfUser, type MarketUser } from './market-helpers';
import { addMember, makeOrg, ORG_PASSWORD, GENEROUS } from './org-helpers';
import { holder } from './retire-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS });
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems, report.totals])).toBe(true);
  await s?.close();
});

type Scope = 'read' | 'buy' | 'retire' | 'webhooks';

async function createKey(token: string, mode: 'test' | 'live', scopes: Scope[] = ['read', 'buy', 'retire'], extra: Record<string, unknown> = {}, password = TRADE_PASSWORD) {
  return s.api('POST', PATHS.developerKeys, { name: `${mode} key`, mode, scopes, password, ...extra }, { token });
}

async function keyOf(u: { token: string }, mode: 'test' | 'live', scopes?: Scope[], password?: string): Promise<string> {
  const res = await createKey(u.token, mode, scopes, {}, password);
  expect(res.code, res.msg).toBe(0);
  return res.data.key as string;
}

// Every /v1 answer is checked against /v1/openapi.json: a success against its operation's schema, a
// refusal against Problem; an answer of a path or status the document does not list fails.
const v1Doc = v1Document({ PUBLIC_URL: 'http://127.0.0.1', PORT: 0 }) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(v1Doc as object, 'v1.json');
const problemSchema = ajv.compile({ $ref: 'v1.json#/components/schemas/Problem' });
const successSchemas = new Map<string, ValidateFunction>();
const pointer = (t: string) => t.replaceAll('~', '~0').replaceAll('/', '~1');

function checkV1Contract(method: string, path: string, status: number, body: unknown) {
  const pathname = path.split('?')[0]!;
  const template = Object.keys(v1Doc.paths).find((t) => new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+') + '$').test(pathname));
  const op = template ? v1Doc.paths[template]![method.toLowerCase()] : undefined;
  if (status >= 400) {
    expect(problemSchema(body), JSON.stringify(problemSchema.errors)).toBe(true);
    return;
  }
  expect(op, `${method} ${pathname} is not in /v1/openapi.json`).toBeDefined();
  const code = Object.keys(op!.responses).find((k) => /^2\d\d$/.test(k))!;
  // A replay answers 200 where the first answer was 201: the same schema.
  expect([Number(code), 200]).toContain(status);
  const key = `${method} ${template}`;
  let validate = successSchemas.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `v1.json#/paths/${pointer(template!)}/${method.toLowerCase()}/responses/${code}/content/${pointer('application/json')}/schema` });
    successSchemas.set(key, validate);
  }
  expect(validate(body), `${key}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

interface V1Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function v1(method: 'GET' | 'POST', path: string, key: string | null, body?: Record<string, unknown>, opts: { idem?: string | null; lang?: string } = {}): Promise<V1Answer> {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (opts.lang) headers['Accept-Language'] = opts.lang;
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    if (opts.idem !== null) headers['Idempotency-Key'] = opts.idem ?? newKey();
  }
  const res = await fetch(`${s.url}/v1${path}`, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  checkV1Contract(method, path, res.status, parsed);
  return { status: res.status, headers: res.headers, body: parsed };
}

function expectProblem(a: V1Answer, status: number, key: ErrorKey, lang: Lang = 'en', params?: Record<string, string | number>) {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  expect(a.headers.get('content-type')).toContain('application/problem+json');
  expect(a.body).toMatchObject({ status, code: ERRORS[key].code, detail: errorMessage(key, lang, params) });
  expect(typeof a.body.type).toBe('string');
  expect(typeof a.body.title).toBe('string');
}

/** Everything live: money, credits, supply, orders, retirements (the sandbox's own rows excluded). */
async function liveSnapshot(userIds: number[]) {
  const m = await marketSnapshot(s);
  return {
    ledger: m.ledger_accounts.filter((a) => a.owner_id >= 0 && !a.name.startsWith('sandbox_')),
    fund_logs: m.fund_logs.filter((f) => f.owner_id >= 0 && !f.account_name.startsWith('sandbox_')),
    orders: m.orders,
    projects: m.projects,
    credit_holdings: m.credit_holdings,
    retirements: await s.db.selectFrom('retirements').selectAll().execute(),
    receipts: await s.db.selectFrom('receipts').selectAll().execute(),
    users: m.users.filter((u) => userIds.includes(u.id)),
  };
}

describe('API keys', () => {
  it('makes a key with the payment password, keeps only its hash, lists it with its last use, and revokes it', async () => {
    const u = await makeUser(s);
    const res = await createKey(u.token, 'test', ['read', 'buy']);
    expect(res.code, res.msg).toBe(0);
    const { id, prefix, mode, key } = res.data as { id: number; prefix: string; mode: string; key: string };
    expect(mode).toBe('test');
    expect(key).toMatch(/^ck_test_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);
    const row = await s.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(prefix.length));

    expect((await v1('GET', '/balance', key)).status).toBe(200);
    const list = await s.api('GET', PATHS.developerKeys, {}, { token: u.token });
    expect(list.code, list.msg).toBe(0);
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({ id, prefix, mode: 'test', scopes: ['read', 'buy'], status: 'active', created_by: u.email, last_used_at: s.clock.now(), last_used_ip: '127.0.0.1' });
    expect(JSON.stringify(list.data)).not.toContain(key.slice(prefix.length));

    const revoked = await s.api('POST', PATHS.developerKeysRevoke, { id }, { token: u.token, idempotencyKey: newKey() });
    expect(revoked.code, revoked.msg).toBe(0);
    expectProblem(await v1('GET', '/balance', key), 401, 'api_key_invalid');
  });

  it('refuses a wrong payment password in en and cn, counts the attempt, and makes no key', async () => {
    const u = await makeUser(s);
    for (const [i, lang] of (['en', 'cn'] as Lang[]).entries()) {
      const res = await s.api('POST', PATHS.developerKeys, { name: 'k', mode: 'live', scopes: ['read'], password: 'wrong-password' }, { token: u.token, lang });
      expect(res).toMatchObject(refusal('project_password_incorrect', lang, { n: 4 - i }));
    }
    expect(await s.db.selectFrom('api_keys').selectAll().where('account_id', '=', u.id).execute()).toHaveLength(0);
    const user = await s.db.selectFrom('users').select('trade_fails').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.trade_fails).toBe(2);
  });

  it('ends an expired key, and a rotated key after its overlap while the new one works', async () => {
    const u = await makeUser(s);
    const short = await createKey(u.token, 'test', ['read'], { expires_at: s.clock.now() + DAY });
    expect(short.code, short.msg).toBe(0);
    const past = await createKey(u.token, 'test', ['read'], { expires_at: s.clock.now() - 1 });
    expect(past).toMatchObject(refusal('api_key_expiry_invalid'));
    const old = await createKey(u.token, 'live', ['read']);
    const rotated = await s.api('POST', PATHS.developerKeysRotate, { id: old.data.id, overlap_hours: 1, password: TRADE_PASSWORD }, { token: u.token });
    expect(rotated.code, rotated.msg).toBe(0);
    expect(rotated.data.key).toMatch(/^ck_live_/);
    expect((await v1('GET', '/balance', old.data.key)).status).toBe(200);
    s.clock.advance(2 * 3_600_000);
    expectProblem(await v1('GET', '/balance', old.data.key), 401, 'api_key_invalid');
    expect((await v1('GET', '/balance', rotated.data.key)).status).toBe(200);
    s.clock.advance(DAY);
    expectProblem(await v1('GET', '/balance', short.data.key), 401, 'api_key_invalid');
  });

  it('keeps session tokens off /v1 and keys off the app API', async () => {
    const u = await makeUser(s);
    const key = await keyOf(u, 'live');
    expectProblem(await v1('GET', '/balance', u.token), 401, 'api_key_invalid');
    expectProblem(await v1('GET', '/balance', null), 401, 'api_key_invalid');
    const res = await s.api('GET', PATHS.userInfo, {}, { token: `Bearer ${key}` });
    expect(res.code).toBe(ERRORS.session_expired.code);
    const list = await s.api('GET', PATHS.developerKeys, {}, { token: `Bearer ${key}` });
    expect(list.code).toBe(ERRORS.session_expired.code);
  });

  it('lets the owner and admins of an organisation make keys, not a buyer; a key write is in the activity log under its name', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    const buyer = await addMember(s, org, 'buyer');
    for (const lang of ['en', 'cn'] as Lang[]) {
      const refused = await s.api('POST', PATHS.developerKeys, { name: 'b', mode: 'test', scopes: ['read'], password: TRADE_PASSWORD }, { token: buyer.orgToken, lang });
      expect(refused).toMatchObject(refusal('api_key_forbidden', lang));
    }
    const byAdmin = await s.api('POST', PATHS.developerKeys, { name: 'Shop checkout', mode: 'test', scopes: ['read', 'buy'], password: TRADE_PASSWORD }, { token: admin.orgToken });
    expect(byAdmin.code, byAdmin.msg).toBe(0);
    const byOwner = await createKey(org.owner.token, 'test', ['read'], {}, ORG_PASSWORD);
    expect(byOwner.code, byOwner.msg).toBe(0);
    const pid = await makeProject(s);
    const order = await v1('POST', '/orders', byAdmin.data.key, { project_id: pid, tons: 2 });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const rows = await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', org.id).where('action', '=', 'v1.orders').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.member_id).toBe(admin.id);
    expect(JSON.parse(rows[0]!.detail).request.api_key).toBe(`Shop checkout (${byAdmin.data.prefix})`);
    const made = await s.db.selectFrom('organisation_activity').selectAll().where('account_id', '=', org.id).where('action', '=', 'developer.keys').execute();
    expect(made).toHaveLength(2);
    // The admin's key ends with her role; the owner's goes on.
    const demoted = await s.api('POST', PATHS.orgRole, { user_id: admin.id, role: 'viewer' }, { token: org.owner.token, idempotencyKey: newKey() });
    expect(demoted.code, demoted.msg).toBe(0);
    expectProblem(await v1('GET', '/balance', byAdmin.data.key), 401, 'api_key_invalid');
    expect((await v1('GET', '/balance', byOwner.data.key)).status).toBe(200);
  });
});

describe('/v1 reads', () => {
  it('pages projects by cursor and filters by carbon-tax eligibility', async () => {
    const u = await makeUser(s);
    const key = await keyOf(u, 'live', ['read']);
    for (let i = 0; i < 3; i++) await makeProject(s);
    const first = await v1('GET', '/projects?limit=2', key);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toBe(String(first.body.data[1].id));
    const next = await v1('GET', `/projects?limit=2&cursor=${first.body.next_cursor}`, key);
    expect(next.body.data[0].id).toBeGreaterThan(first.body.data[1].id);
    const eligible = await v1('GET', '/projects?icc_eligible=true&limit=100', key);
    expect(eligible.body.data.every((p: { icc_verdict: string }) => p.icc_verdict === 'eligible')).toBe(true);
    const notEligible = await v1('GET', '/projects?icc_eligible=false&limit=100', key);
    expect(notEligible.body.data.length).toBeGreaterThan(0);
    expect(notEligible.body.data.every((p: { icc_verdict: string }) => p.icc_verdict !== 'eligible')).toBe(true);
    const one = await v1('GET', `/projects/${first.body.data[0].id}`, key);
    expect(one.body).toEqual(first.body.data[0]);
    expectProblem(await v1('GET', '/projects/99999999', key), 404, 'api_not_found');
  });

  it('answers problem details in the language of Accept-Language', async () => {
    const u = await makeUser(s);
    const key = await keyOf(u, 'live', ['read']);
    expectProblem(await v1('GET', '/projects/99999999', key, undefined, { lang: 'zh-CN,zh;q=0.9' }), 404, 'api_not_found', 'cn');
    expectProblem(await v1('GET', '/projects/99999999', key, undefined, { lang: 'en-SG' }), 404, 'api_not_found', 'en');
    const scoped = await v1('POST', '/orders', key, { project_id: 1, tons: 1 }, { lang: 'zh' });
    expectProblem(scoped, 403, 'api_key_scope', 'cn', { scope: 'buy' });
    expect(scoped.headers.get('content-language')).toBe('zh');
  });

  it('announces the budget with RateLimit headers and refuses beyond it with 429', async () => {
    const u = await makeUser(s);
    const key = await keyOf(u, 'test', ['read']);
    const first = await v1('GET', '/balance', key);
    expect(first.headers.get('ratelimit-policy')).toBe('"per-key";q=100;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"per-key";r=99;t=\d+$/);
    for (let i = 0; i < 99; i++) await v1('GET', '/balance', key);
    const over = await v1('GET', '/balance', key);
    expectProblem(over, 429, 'too_many_requests');
    expect(over.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key of the same account has its own budget.
    const other = await keyOf(u, 'test', ['read']);
    expect((await v1('GET', '/balance', other)).status).toBe(200);
  });
});

describe('the sandbox', () => {
  let u: MarketUser;
  let pid: number;
  let testKey: string;
  let liveKey: string;

  beforeAll(async () => {
    u = await makeUser(s, { cents: 50_000 });
    pid = await makeProject(s, { registry_id: 'VCS-9001', vintage: 2024 });
    testKey = await keyOf(u, 'test');
    liveKey = await keyOf(u, 'live');
  });

  it('starts with S$10,000.00 of play money, buys at once and retires TEST, touching nothing live', async () => {
    const before = await liveSnapshot([u.id]);
    expect((await v1('GET', '/balance', testKey)).body).toEqual({ object: 'balance', mode: 'test', available: 1_000_000, credits: 0, currency: 'SGD' });
    const idem = newKey();
    const q = await v1('POST', '/quotes', testKey, { project_id: pid, tons: 5 }, { idem });
    expect(q.status).toBe(201);
    const again = await v1('POST', '/quotes', testKey, { project_id: pid, tons: 5 }, { idem });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(q.body);
    expect(q.body).toMatchObject({ object: 'quote', mode: 'test', tons: 5, unit_price: 1000, total: 5000 });
    const order = await v1('POST', '/orders', testKey, { project_id: pid, tons: 5, quote_id: q.body.id });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ object: 'order', mode: 'test', status: 'completed', tons: 5, total: 5000 });
    const ret = await v1('POST', '/retirements', testKey, { project_id: pid, tons: 3, beneficiary: 'Shop customer 42', reason: 'Order 42', privacy: 'private' });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    expect(ret.body).toMatchObject({ object: 'retirement', mode: 'test', test: true, tons: 3, privacy: 'private', certificate_url: null });
    expect((await v1('GET', `/retirements/${ret.body.id}`, testKey)).body).toEqual(ret.body);
    expect((await v1('GET', '/balance', testKey)).body).toMatchObject({ available: 1_000_000 - 5000, credits: 2 });
    expect((await v1('GET', `/orders/${order.body.id}`, testKey)).body).toEqual(order.body);
    // Nothing live moved: money, supply, orders, holdings, retirements, receipts, figures.
    expect(await liveSnapshot([u.id])).toEqual(before);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 50_000, credits: 0 });
    const transparency = await s.api('GET', PATHS.publicTransparency);
    expect(JSON.stringify(transparency.data)).not.toContain('Shop customer 42');
    // The live key sees none of it.
    expect((await v1('GET', '/orders', liveKey)).body.data).toEqual([]);
    expectProblem(await v1('GET', `/orders/${order.body.id}`, liveKey), 404, 'api_not_found');
    expectProblem(await v1('GET', `/retirements/${ret.body.id}`, liveKey), 404, 'api_not_found');
    expect((await v1('GET', '/balance', liveKey)).body).toMatchObject({ mode: 'live', available: 50_000, credits: 0 });
    // Play money on request; refused for a live key.
    const more = await v1('POST', '/sandbox/topup', testKey, {});
    expect(more.body).toMatchObject({ available: 2_000_000 - 5000 });
    expectProblem(await v1('POST', '/sandbox/topup', liveKey, {}), 422, 'api_test_only');
    const button = await s.api('POST', PATHS.developerSandboxTopup, {}, { token: u.token, idempotencyKey: newKey() });
    expect(button.data).toEqual({ available: 3_000_000 - 5000, credits: 2 });
    expect(await liveSnapshot([u.id])).toEqual(before);
  });

  it('buys and retires live with a live key, which the test key never sees', async () => {
    const sandboxBefore = (await v1('GET', '/balance', testKey)).body;
    const order = await v1('POST', '/orders', liveKey, { project_id: pid, tons: 4 });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ object: 'order', mode: 'live', tons: 4, total: 4000 });
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 46_000 });
    const p = await s.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(p.remaining_tons).toBe(996);
    expectProblem(await v1('GET', `/orders/${order.body.id}`, testKey), 404, 'api_not_found');
    expect((await v1('GET', '/orders', testKey)).body.data.every((o: { mode: string }) => o.mode === 'test')).toBe(true);
    expect((await v1('GET', '/balance', testKey)).body).toEqual(sandboxBefore);
    expect((await v1('GET', `/orders/${order.body.id}`, liveKey)).body).toEqual(order.body);
  });

  it('refuses in the sandbox as live: a buy beyond the play money, a retirement beyond the play credits', async () => {
    const poor = await makeUser(s);
    const key = await keyOf(poor, 'test');
    const big = await makeProject(s, { price: 1_000_000, max_tons: 100, registry_id: 'VCS-9002', vintage: 2024 });
    for (const lang of ['en', 'zh'] as const) {
      const before = await liveSnapshot([poor.id]);
      expectProblem(await v1('POST', '/orders', key, { project_id: big, tons: 2 }, { lang }), 422, 'insufficient_balance', lang === 'zh' ? 'cn' : 'en');
      expectProblem(await v1('POST', '/retirements', key, { project_id: big, tons: 1, beneficiary: 'x' }, { lang }), 422, 'retire_insufficient_credits', lang === 'zh' ? 'cn' : 'en', { n: 0 });
      expect(await liveSnapshot([poor.id])).toEqual(before);
    }
    expect(await s.db.selectFrom('sandbox_orders').selectAll().where('account_id', '=', poor.id).execute()).toEqual([]);
  });
});

describe("an attacker's probes", () => {
  it("another account's key finds none of this account's orders or retirements", async () => {
    const a = await makeUser(s, { cents: 10_000 });
    const b = await makeUser(s);
    const pid = await makeProject(s);
    const aLive = await keyOf(a, 'live');
    const aTest = await keyOf(a, 'test');
    const bLive = await keyOf(b, 'live');
    const bTest = await keyOf(b, 'test');
    const live = await v1('POST', '/orders', aLive, { project_id: pid, tons: 1 });
    const test = await v1('POST', '/orders', aTest, { project_id: pid, tons: 1 });
    expectProblem(await v1('GET', `/orders/${live.body.id}`, bLive), 404, 'api_not_found');
    expectProblem(await v1('GET', `/orders/${test.body.id}`, bTest), 404, 'api_not_found');
    expect((await v1('GET', '/orders', bTest)).body.data).toEqual([]);
  });

  it('refuses a key beyond its scopes, and a POST without an Idempotency-Key, changing nothing', async () => {
    const u = await makeUser(s, { cents: 10_000 });
    const pid = await makeProject(s);
    const readOnly = await keyOf(u, 'live', ['read']);
    const full = await keyOf(u, 'live');
    const before = await liveSnapshot([u.id]);
    expectProblem(await v1('POST', '/orders', readOnly, { project_id: pid, tons: 1 }), 403, 'api_key_scope', 'en', { scope: 'buy' });
    expectProblem(await v1('POST', '/retirements', readOnly, { project_id: pid, tons: 1, beneficiary: 'x' }), 403, 'api_key_scope', 'en', { scope: 'retire' });
    expectProblem(await v1('POST', '/orders', full, { project_id: pid, tons: 1 }, { idem: null }), 400, 'api_idempotency_required');
    expect(await liveSnapshot([u.id])).toEqual(before);
  });

  it('40 parallel POST /v1/orders with one Idempotency-Key make one order', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s);
    const key = await keyOf(u, 'live');
    const idem = newKey();
    const answers = await Promise.all(Array.from({ length: 40 }, () => v1('POST', '/orders', key, { project_id: pid, tons: 3 }, { idem })));
    const ids = new Set(answers.map((a) => (expect([200, 201], JSON.stringify(a.body)).toContain(a.status), a.body.id)));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const orders = await s.db.selectFrom('orders').selectAll().where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(1);
    expect(await walletOfUser(s, u.id)).toMatchObject({ available: 97_000 });
    // The same key with another body is refused; another API key's same Idempotency-Key is its own.
    expectProblem(await v1('POST', '/orders', key, { project_id: pid, tons: 4 }, { idem }), 409, 'idempotency_mismatch');
    const other = await keyOf(u, 'live');
    expect((await v1('POST', '/orders', other, { project_id: pid, tons: 3 }, { idem })).status).toBe(201);
  });
});

describe('the catalogue refusals of keys and /v1, in en and cn, changing nothing', () => {
  const keyTables = async () => ({ keys: await s.db.selectFrom('api_keys').selectAll().orderBy('id').execute(), live: await liveSnapshot([]) });

  it("api_key_not_found: another account's key id; api_key_revoked: revoking twice", async () => {
    const a = await makeUser(s);
    const b = await makeUser(s);
    const theirs = await createKey(b.token, 'test', ['read']);
    const mine = await createKey(a.token, 'test', ['read']);
    await s.api('POST', PATHS.developerKeysRevoke, { id: mine.data.id }, { token: a.token, idempotencyKey: newKey() });
    for (const lang of ['en', 'cn'] as Lang[]) {
      const before = await keyTables();
      expect(await s.api('POST', PATHS.developerKeysRevoke, { id: theirs.data.id }, { token: a.token, lang, idempotencyKey: newKey() })).toMatchObject(refusal('api_key_not_found', lang));
      expect(await s.api('POST', PATHS.developerKeysRotate, { id: theirs.data.id, password: TRADE_PASSWORD }, { token: a.token, lang })).toMatchObject(refusal('api_key_not_found', lang));
      expect(await s.api('POST', PATHS.developerKeysRevoke, { id: mine.data.id }, { token: a.token, lang, idempotencyKey: newKey() })).toMatchObject(refusal('api_key_revoked', lang));
      expect(await keyTables()).toEqual(before);
    }
    expect((await v1('GET', '/balance', theirs.data.key)).status).toBe(200);
  });

  it('api_keys_full: at most 20 active keys', async () => {
    const u = await makeUser(s);
    for (let i = 0; i < 20; i++) expect((await createKey(u.token, 'live', ['read'])).code).toBe(0);
    for (const lang of ['en', 'cn'] as Lang[]) {
      const before = await keyTables();
      const res = await s.api('POST', PATHS.developerKeys, { name: 'one more', mode: 'live', scopes: ['read'], password: TRADE_PASSWORD }, { token: u.token, lang });
      expect(res).toMatchObject(refusal('api_keys_full', lang, { n: 20 }));
      expect(await keyTables()).toEqual(before);
    }
  });

  it("api_quote_expired: a quote past its minutes, another mode's or another project's", async () => {
    const u = await makeUser(s, { cents: 10_000 });
    const pid = await makeProject(s);
    const other = await makeProject(s);
    const live = await keyOf(u, 'live');
    const test = await keyOf(u, 'test');
    const q = await v1('POST', '/quotes', live, { project_id: pid, tons: 1 });
    for (const lang of ['en', 'zh'] as const) {
      const before = await liveSnapshot([u.id]);
      const l: Lang = lang === 'zh' ? 'cn' : 'en';
      expectProblem(await v1('POST', '/orders', test, { project_id: pid, tons: 1, quote_id: q.body.id }, { lang }), 422, 'api_quote_expired', l);
      expectProblem(await v1('POST', '/orders', live, { project_id: other, tons: 1, quote_id: q.body.id }, { lang }), 422, 'api_quote_expired', l);
      expectProblem(await v1('POST', '/orders', live, { project_id: pid, tons: 1, quote_id: q.body.id.slice(0, -2) + '00' }, { lang }), 422, 'api_quote_expired', l);
      expect(await liveSnapshot([u.id])).toEqual(before);
    }
    s.clock.advance(6 * 60_000);
    expectProblem(await v1('POST', '/orders', live, { project_id: pid, tons: 1, quote_id: q.body.id }), 422, 'api_quote_expired');
    const fresh = await v1('POST', '/quotes', live, { project_id: pid, tons: 1 });
    await s.db.updateTable('projects').set({ price: 1100 }).where('id', '=', pid).execute();
    expectProblem(await v1('POST', '/orders', live, { project_id: pid, tons: 1, quote_id: fresh.body.id }), 422, 'api_quote_expired');
    expect(await s.db.selectFrom('orders').selectAll().where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it("api_approval_required: a live retirement above the organisation's threshold, when someone else approves", async () => {
    const org = await makeOrg(s);
    await addMember(s, org, 'approver');
    const set = await s.api('POST', PATHS.approvalThresholds, { retire_tons: 1, withdraw_cents: 0 }, { token: org.owner.token, idempotencyKey: newKey() });
    expect(set.code, set.msg).toBe(0);
    const key = await keyOf(org.owner, 'live', ['read', 'retire'], ORG_PASSWORD);
    const pid = await makeProject(s, { registry_id: 'VCS-7001', vintage: 2024 });
    for (const lang of ['en', 'zh'] as const) {
      const before = await liveSnapshot([org.id]);
      expectProblem(await v1('POST', '/retirements', key, { project_id: pid, tons: 2, beneficiary: 'x' }, { lang }), 422, 'api_approval_required', lang === 'zh' ? 'cn' : 'en');
      expect(await liveSnapshot([org.id])).toEqual(before);
      expect(await s.db.selectFrom('approval_requests').selectAll().where('account_id', '=', org.id).execute()).toEqual([]);
    }
  });
});

describe('live retirements', () => {
  it('retires live with the public certificate URL; the test key never sees it', async () => {
    const { u, pid } = await holder(s, 10, { registry_id: 'VCS-3003', vintage: 2023 });
    const live = await keyOf(u, 'live');
    const test = await keyOf(u, 'test');
    const ret = await v1('POST', '/retirements', live, { project_id: pid, tons: 4, beneficiary: 'Acme Pte Ltd', reason: 'FY2026 deliveries' });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    expect(ret.body).toMatchObject({ mode: 'live', test: false, tons: 4, privacy: 'public', certificate_url: `${s.url}/certificate/${ret.body.id}` });
    expect((await v1('GET', `/retirements/${ret.body.id}`, live)).body).toMatchObject({ id: ret.body.id, certificate_url: ret.body.certificate_url });
    expectProblem(await v1('GET', `/retirements/${ret.body.id}`, test), 404, 'api_not_found');
    const cert = await s.api('GET', `/api/public/certificate/${ret.body.id}`);
    expect(cert.code).toBe(0);
    expect((await v1('GET', '/balance', live)).body).toMatchObject({ credits: 6 });
  });
});

describe('webhooks of the sandbox', () => {
  it('writes a test-mode order.completed and retirement.created with the play order and retirement, none live', async () => {
    const u = await makeUser(s);
    const pid = await makeProject(s, { registry_id: 'VCS-5005', vintage: 2024 });
    const key = await keyOf(u, 'test');
    for (const mode of ['test', 'live'] as const) {
      await s.db
        .insertInto('webhook_endpoints')
        .values({ owner_id: u.id, mode, url: 'https://hooks.example.sg/canopy', events: JSON.stringify(['order.completed', 'retirement.created']), secret: 'c2VjcmV0', previous_secret: null, previous_until: null, created_by: u.id, created_at: s.clock.now(), disabled_at: null })
        .execute();
    }
    const order = await v1('POST', '/orders', key, { project_id: pid, tons: 1 });
    const ret = await v1('POST', '/retirements', key, { project_id: pid, tons: 1, beneficiary: 'x' });
    const events = await s.db.selectFrom('webhook_events').selectAll().where('owner_id', '=', u.id).orderBy('id').execute();
    expect(events.map((e) => [e.mode, e.type])).toEqual([
      ['test', 'order.completed'],
      ['test', 'retirement.created'],
    ]);
    expect(JSON.parse(events[0]!.payload).data).toEqual(order.body);
    expect(JSON.parse(events[1]!.payload).data).toEqual(ret.body);
  });
});

describe('/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every /v1 operation, served with its reference page', async () => {
    const doc = await (await fetch(`${s.url}/v1/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/balance', '/orders', '/orders/{id}', '/projects', '/projects/{id}', '/quotes', '/retirements', '/retirements/{id}', '/sandbox/topup']);
    const page = await fetch(`${s.url}/v1/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/v1/docs/init.js');
  });
});
