// Accounts end to end over real HTTP (docs/product.md#accounts, docs/product.md#validation,
// docs/product.md#roles, docs/product.md#error-catalogue): registration with an emailed code, login and its
// lock, logout, visitor, password reset, sessions, and every catalogue refusal of these endpoints in en and
// cn, with the database unchanged on refusal.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { API_BASE, PATHS } from '../../src/shared/api';
import { createApp } from '../../src/server/app';
import { type ErrorKey, type Lang, type MessageParams } from '../../src/shared/errors';
import { sha256 } from '../../src/server/lib/crypto';
import { DEMO_ACCOUNT } from '../../src/server/db/seed';
import {
  CLI_TEST_TIMEOUT_MS,
  DAY,
  GOOD_PASSWORD,
  MIN,
  HOUR,
  dbSnapshot,
  lastCode,
  login,
  refusal,
  registerUser,
  startTestServer,
  type Envelope,
  type TestServer,
  runCli,
} from '../helpers/server';

const LANGS: Lang[] = ['en', 'cn'];
type Snapshot = Awaited<ReturnType<typeof dbSnapshot>>;

let s: TestServer;
let seq = 0;
const email = (tag: string) => `${tag}.${++seq}@example.sg`;

beforeAll(async () => {
  // Every test here comes from 127.0.0.1: the per-IP limits are raised (the bulk test has its own server).
  // The throttles have their own suite (throttle.test.ts); here one address makes every request.
  s = await startTestServer({ CODES_PER_IP_PER_HOUR: '1000', REGISTRATIONS_PER_IP_PER_HOUR: '1000', LOGINS_PER_IP_PER_HOUR: '1000' });
});
afterAll(async () => {
  await s?.close();
});

/** A refusal in both languages: code and msg from the catalogue, and the database as it was (after `mask`,
 *  which removes the counters a rule itself is meant to change). */
async function expectRefused(
  server: TestServer,
  key: ErrorKey,
  call: (lang: Lang) => Promise<Envelope>,
  opts: { params?: MessageParams; field?: string; mask?: (snap: Snapshot) => unknown } = {},
) {
  const mask = opts.mask ?? ((x: Snapshot) => x);
  for (const lang of LANGS) {
    const before = mask(await dbSnapshot(server.db));
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, opts.params));
    expect(res.wait).toBe(3);
    if (opts.field) expect(res.data).toEqual({ field: opts.field });
    const after = mask(await dbSnapshot(server.db));
    expect(after, `database changed on ${key} (${lang})`).toEqual(before);
  }
}

const withoutTries = (snap: Snapshot) => ({ ...snap, verification_codes: snap.verification_codes.map(({ tries: _t, ...rest }) => rest) });
const withoutLoginFails = (snap: Snapshot) => ({ ...snap, users: snap.users.map(({ login_fails: _f, login_locked: _l, ...rest }) => rest) });

function regBody(over: Record<string, unknown> = {}) {
  return { email: email('reg'), code: '123456', password: GOOD_PASSWORD, repassword: GOOD_PASSWORD, agree: true, ...over };
}

const post = (p: string, data: Record<string, unknown>, lang: Lang, token?: string) => s.api('POST', p, data, { lang, token });

describe('envelope and transport', () => {
  it('answers {code, msg, data, wait: 3, time} with the server clock', async () => {
    const res = await s.api('GET', PATHS.baseconfig);
    expect(Object.keys(res).sort()).toEqual(['code', 'data', 'msg', 'time', 'wait']);
    expect(res.code).toBe(0);
    expect(res.wait).toBe(3);
    expect(res.time).toBe(s.clock.now());
    const refused = await s.api('GET', PATHS.userInfo);
    expect(Object.keys(refused).sort()).toEqual(['code', 'data', 'msg', 'time', 'wait']);
    expect(refused.time).toBe(s.clock.now());
  });

  it('takes lang from the query string for GET and from the JSON body for POST', async () => {
    expect((await s.api('GET', PATHS.userInfo, {}, { lang: 'cn' })).msg).toBe(refusal('session_expired', 'cn').msg);
    expect((await s.api('GET', PATHS.userInfo, { lang: 'xx' })).msg).toBe(refusal('session_expired', 'en').msg);
    const res = await s.raw('POST', PATHS.login, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ lang: 'cn', email: 'x@example.sg', password: 'x', agree: false }) });
    expect(await res.json()).toMatchObject(refusal('terms_required', 'cn'));
    // POST with lang in the query string also works (the client's upload puts it there).
    const q = await s.raw('POST', PATHS.login, { query: 'lang=cn', headers: { 'Content-Type': 'application/json' }, body: '{"email":"","password":"x","agree":true}' });
    expect(await q.json()).toMatchObject(refusal('required', 'cn'));
  });

  it('answers an unknown API path with HTTP 404 and the not_found envelope', async () => {
    for (const lang of LANGS) {
      const res = await s.raw('GET', '/api/nope/nothing', { query: `lang=${lang}` });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type'), 'an unknown API path must answer the JSON envelope').toContain('application/json');
      expect(await res.json()).toMatchObject({ ...refusal('not_found', lang), wait: 3 });
    }
    const p = await s.raw('POST', '/api/login/nothing', { headers: { 'Content-Type': 'application/json' }, body: '{"lang":"cn"}' });
    expect(p.status).toBe(404);
    expect(p.headers.get('content-type')).toContain('application/json');
    expect(await p.json()).toMatchObject(refusal('not_found', 'cn'));
  });

  it('refuses a body over 64 KB and changes nothing', async () => {
    const before = await dbSnapshot(s.db);
    const big = JSON.stringify({ email: 'big@example.sg', password: 'x'.repeat(70 * 1024), agree: true });
    const res = await s.raw('POST', PATHS.login, { headers: { 'Content-Type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    // The rest of the body was never read: the connection ends with this answer, and the client knows it.
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject(refusal('invalid_request', 'en'));
    expect(await dbSnapshot(s.db)).toEqual(before);
    // The next request (a new connection) is answered normally.
    expect((await s.api('GET', PATHS.baseconfig)).code).toBe(0);
  });

  it('refuses an endless chunked body once it passes 64 KB, without waiting for its end', async () => {
    // A body without Content-Length must be cut off at the limit, not buffered whole (memory exhaustion).
    const url = new URL(s.url);
    const status = await new Promise<number | 'no answer'>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method: 'POST', path: '/h5/api' + PATHS.login, headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (err) => (err.message.includes('socket hang up') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      req.write('{"email":"' + 'a'.repeat(80 * 1024));
      // never ended: any answer at all came before the body's end; 10 s is only how long to wait for it (a
      // loaded machine can hold the test process for seconds)
      setTimeout(() => {
        resolve('no answer');
        req.destroy();
      }, 10_000);
    });
    expect(status).toBe(413);
  });

  it('never answers 500 to malformed or random input', async () => {
    const posts = [PATHS.sendcode, PATHS.register, PATHS.login, PATHS.reset, PATHS.logout, PATHS.visitor];
    const fixed = ['', 'null', '[]', '"text"', '42', '{', '{"email":', 'true', '{"email":{"$gt":""}}', '{"__proto__":{"agree":true}}', '\u0000\u0001', '{"agree":"1","email":[1,2]}'];
    const check = async (p: string, body: string, type = 'application/json') => {
      const res = await s.raw('POST', p, { headers: { 'Content-Type': type }, body });
      expect(res.status, `${p} ${body.slice(0, 60)}`).toBe(200);
      const env = (await res.json()) as Envelope;
      expect(typeof env.code).toBe('number');
      expect(typeof env.msg).toBe('string');
    };
    for (const p of posts) {
      for (const body of fixed) await check(p, body);
      await check(p, 'email=a&password=b', 'application/x-www-form-urlencoded');
      await check(p, 'plain', 'text/plain');
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), fc.oneof(fc.json(), fc.string()), async (p, body) => {
        await check(p, body);
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('page', 'page_size', 'id', 'status', 'type', 'q', 'slug'), fc.string()), async (q) => {
        for (const p of [PATHS.projectLists, PATHS.projectDetail, PATHS.newsLists, PATHS.newsDetail, PATHS.page, PATHS.userInfo]) {
          const res = await s.raw('GET', p, { query: new URLSearchParams(q).toString() });
          expect(res.status, `${p}?${new URLSearchParams(q)}`).toBe(200);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('stores passwords as salted argon2id and session tokens only as sha256 hashes', async () => {
    const u = await registerUser(s, email('hash'));
    const row = await s.db.selectFrom('users').selectAll().where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[\w+/]{22}\$[\w+/]{43}$/);
    expect(row.password_hash).not.toContain(GOOD_PASSWORD);
    const other = await registerUser(s, email('hash2'));
    const row2 = await s.db.selectFrom('users').select('password_hash').where('id', '=', other.mem_id).executeTakeFirstOrThrow();
    expect(row2.password_hash).not.toBe(row.password_hash); // salted
    const sessions = await s.db.selectFrom('sessions').selectAll().where('user_id', '=', u.mem_id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.token_hash).toBe(sha256(u.token));
    expect(JSON.stringify(await dbSnapshot(s.db))).not.toContain(u.token);
    expect(Buffer.from(u.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    // The verification code is kept only as a hash too.
    const codes = await s.db.selectFrom('verification_codes').selectAll().where('email', '=', u.account).execute();
    expect(codes[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('register', () => {
  it('registers with the emailed code and answers the login info', async () => {
    const e = email('new');
    const sent = await s.api('POST', PATHS.sendcode, { email: e, scene: 'register' });
    expect(sent).toMatchObject({ code: 0, data: null });
    const code = await lastCode(s.db, e);
    const res = await s.api('POST', PATHS.register, { email: e, code, password: GOOD_PASSWORD, repassword: GOOD_PASSWORD, agree: true });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ mem_id: expect.any(Number), account: e, type: 'personal', realname: '', mobile: '', avatar: '' });
    expect(res.data.token).toMatch(/^[\w-]{40,}$/);
    expect(res.data.expires_at).toBe(s.clock.now() + 30 * DAY);
    const info = await s.api('GET', PATHS.userInfo, {}, { token: res.data.token });
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({ mem_id: res.data.mem_id, email: e, type: 'personal', grade: 0, credit_score: 'excellent', risk: false, locked: false });
    expect(info.data.invite_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(info.data.wallet).toEqual({ available: 0, frozen: 0, presale: 0, unavailable: 0, credits: 0 });
    const accounts = await s.db.selectFrom('ledger_accounts').select('name').where('owner_id', '=', res.data.mem_id).execute();
    expect(accounts.map((a) => a.name).sort()).toEqual(['available', 'credits', 'frozen', 'presale', 'unavailable']);
    // Then the same email cannot register again.
    await expectRefused(s, 'email_exists', (lang) => post(PATHS.register, regBody({ email: e, code }), lang));
  });

  it('registers a corporate account with company and UEN, an invite code and a mixed-case email', async () => {
    const demo = await s.db.selectFrom('users').select(['id', 'invite_code']).where('email', '=', DEMO_ACCOUNT.email).executeTakeFirstOrThrow();
    const e = email('Corp').replace('corp', 'CoRp');
    const u = await registerUser(s, e, { type: 'corporate', company: 'Green Pte Ltd', uen: '201912345k', invite_code: demo.invite_code.toLowerCase() });
    expect(u.account).toBe(e.toLowerCase());
    const row = await s.db.selectFrom('users').selectAll().where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'corporate', company: 'Green Pte Ltd', uen: '201912345K', invited_by: demo.id, email: e.toLowerCase() });
  });

  it('answers the catalogue errors of its fields in en and cn, changing nothing', async () => {
    const r = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.register, regBody(over), lang);
    await expectRefused(s, 'required', r({ email: '' }), { field: 'email' });
    await expectRefused(s, 'required', r({ email: '   ' }), { field: 'email' });
    await expectRefused(s, 'required', r({ password: '' }), { field: 'password' });
    await expectRefused(s, 'required', r({ repassword: '' }), { field: 'repassword' });
    await expectRefused(s, 'too_long', r({ email: 'a'.repeat(135) + '@example.sg' }), { params: { n: 140 }, field: 'email' });
    await expectRefused(s, 'too_long', r({ password: 'Aa1' + 'x'.repeat(140), repassword: 'Aa1' + 'x'.repeat(140) }), { params: { n: 140 }, field: 'password' });
    await expectRefused(s, 'invalid_request', r({ type: 'admin' }));
    await expectRefused(s, 'invalid_request', r({ type: 'corporate', company: 123, uen: '201912345K' }));
    await expectRefused(s, 'invalid_request', async (lang) => {
      const res = await s.raw('POST', PATHS.register, { query: `lang=${lang}`, headers: { 'Content-Type': 'application/json' }, body: '{"email":' });
      return (await res.json()) as Envelope;
    });
    await expectRefused(s, 'invalid_request', async (lang) => {
      const res = await s.raw('POST', PATHS.register, { query: `lang=${lang}`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify([regBody()]) });
      return (await res.json()) as Envelope;
    });
    await expectRefused(s, 'terms_required', r({ agree: false }), { field: 'agree' });
    await expectRefused(s, 'terms_required', r({ agree: '0' }));
    await expectRefused(s, 'email_invalid', r({ email: 'not-an-email' }), { field: 'email' });
    await expectRefused(s, 'email_invalid', r({ email: 'a@b@c.sg' }));
    await expectRefused(s, 'code_format', r({ code: '12345' }), { field: 'code' });
    await expectRefused(s, 'code_format', r({ code: '12a456' }));
    await expectRefused(s, 'code_format', r({ code: '1234567' }));
    await expectRefused(s, 'invite_format', r({ invite_code: 'ABC' }), { field: 'invite_code' });
    await expectRefused(s, 'invite_format', r({ invite_code: 'ABCD!1' }));
    await expectRefused(s, 'invite_format', r({ invite_code: 123456 }));
    for (const weak of ['Short1a', 'lowercase123', 'UPPERCASE123', 'NoDigitsHere']) {
      await expectRefused(s, 'login_password_weak', r({ password: weak, repassword: weak }), { field: 'password' });
    }
    await expectRefused(s, 'password_mismatch', r({ repassword: GOOD_PASSWORD + 'x' }), { field: 'repassword' });
    await expectRefused(s, 'company_required', r({ type: 'corporate', uen: '201912345K' }), { field: 'company' });
    await expectRefused(s, 'company_required', r({ type: 'corporate', company: '   ', uen: '201912345K' }));
    await expectRefused(s, 'uen_invalid', r({ type: 'corporate', company: 'Green Pte Ltd' }), { field: 'uen' });
    await expectRefused(s, 'uen_invalid', r({ type: 'corporate', company: 'Green Pte Ltd', uen: '12345' }), { field: 'uen' });
    await expectRefused(s, 'email_exists', r({ email: DEMO_ACCOUNT.email }));
    await expectRefused(s, 'email_exists', r({ email: DEMO_ACCOUNT.email.toUpperCase() }));
    await expectRefused(s, 'invite_invalid', r({ invite_code: 'ZZZZZ9' }));
  });

  it('a missing field reads like an empty one: required (terms_required for agree), naming the field', async () => {
    // docs/product.md#validation: "Required fields cannot be empty" and "Terms must be agreed before login or
    // registration". An absent key must not fall through to the generic invalid_request.
    const r = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.register, regBody(over), lang);
    await expectRefused(s, 'required', r({ email: undefined }), { field: 'email' });
    await expectRefused(s, 'required', r({ code: undefined }), { field: 'code' });
    await expectRefused(s, 'required', r({ password: undefined }), { field: 'password' });
    await expectRefused(s, 'required', r({ repassword: undefined }), { field: 'repassword' });
    await expectRefused(s, 'terms_required', r({ agree: undefined }), { field: 'agree' });
    const l = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.login, { email: DEMO_ACCOUNT.email, password: 'whatever', agree: true, ...over }, lang);
    await expectRefused(s, 'required', l({ email: undefined }), { field: 'email' });
    await expectRefused(s, 'required', l({ password: undefined }), { field: 'password' });
    await expectRefused(s, 'terms_required', l({ agree: undefined }), { field: 'agree' });
    await expectRefused(s, 'required', (lang) => post(PATHS.sendcode, { scene: 'register' }, lang), { field: 'email' });
  });

  it('sendcode refuses bad input and an existing email', async () => {
    const sc = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.sendcode, { email: email('sc'), scene: 'register', ...over }, lang);
    await expectRefused(s, 'required', sc({ email: '' }));
    await expectRefused(s, 'email_invalid', sc({ email: 'nope' }));
    await expectRefused(s, 'too_long', sc({ email: 'b'.repeat(140) + '@x.sg' }), { params: { n: 140 } });
    await expectRefused(s, 'invalid_request', sc({ scene: 'login' }));
    await expectRefused(s, 'invalid_request', sc({ scene: 5 }));
    await expectRefused(s, 'email_exists', sc({ email: DEMO_ACCOUNT.email }));
    await expectRefused(s, 'email_not_in_use', sc({ scene: 'reset', email: email('ghost') }));
  });

  it('sends the code mail in the request language and refuses a second code within a minute', async () => {
    const e = email('soon');
    expect((await post(PATHS.sendcode, { email: e, scene: 'register' }, 'cn')).code).toBe(0);
    const mail = await s.db.selectFrom('outbox').selectAll().where('to_email', '=', e).executeTakeFirstOrThrow();
    expect(mail.subject).toContain('验证码');
    await expectRefused(s, 'code_too_soon', (lang) => post(PATHS.sendcode, { email: e, scene: 'register' }, lang));
    s.clock.advance(59 * 1000);
    await expectRefused(s, 'code_too_soon', (lang) => post(PATHS.sendcode, { email: e, scene: 'register' }, lang));
    s.clock.advance(1000);
    expect((await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en')).code).toBe(0);
    const mails = await s.db.selectFrom('outbox').selectAll().where('to_email', '=', e).orderBy('id').execute();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toMatch(/verification code: \d{6}$/);
  });

  describe('code_incorrect', () => {
    it('refuses a wrong code (the try counts) and a code never sent', async () => {
      const e = email('wrong');
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      const code = await lastCode(s.db, e);
      const wrong = code === '000000' ? '111111' : '000000';
      await expectRefused(s, 'code_incorrect', (lang) => post(PATHS.register, regBody({ email: e, code: wrong }), lang), { mask: withoutTries });
      const row = await s.db.selectFrom('verification_codes').select('tries').where('email', '=', e).executeTakeFirstOrThrow();
      expect(row.tries).toBe(2);
      await expectRefused(s, 'code_incorrect', (lang) => post(PATHS.register, regBody({ email: email('never') }), lang));
      // The right code still works after two wrong tries.
      expect((await post(PATHS.register, regBody({ email: e, code }), 'en')).code).toBe(0);
    });

    it('refuses a code after 10 minutes', async () => {
      const e = email('late');
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      const code = await lastCode(s.db, e);
      s.clock.advance(10 * MIN);
      await expectRefused(s, 'code_incorrect', (lang) => post(PATHS.register, regBody({ email: e, code }), lang));
      // A fresh code works.
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      expect((await post(PATHS.register, regBody({ email: e, code: await lastCode(s.db, e) }), 'en')).code).toBe(0);
    });

    it('accepts a code just before 10 minutes', async () => {
      const e = email('intime');
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      const code = await lastCode(s.db, e);
      s.clock.advance(10 * MIN - 1000);
      expect((await post(PATHS.register, regBody({ email: e, code }), 'en')).code).toBe(0);
    });

    it('refuses even the right code after 5 wrong tries', async () => {
      const e = email('tries');
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      const code = await lastCode(s.db, e);
      const wrong = code === '999999' ? '888888' : '999999';
      for (let i = 0; i < 5; i++) expect((await post(PATHS.register, regBody({ email: e, code: wrong }), 'en')).code).toBe(refusal('code_incorrect').code);
      await expectRefused(s, 'code_incorrect', (lang) => post(PATHS.register, regBody({ email: e, code }), lang));
      expect(await s.db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirst()).toBeUndefined();
    });

    it('refuses a code that was already used', async () => {
      const u = await registerUser(s, email('reuse'));
      await post(PATHS.sendcode, { email: u.account, scene: 'reset' }, 'en');
      const code = await lastCode(s.db, u.account);
      const pw = 'Another2026b';
      expect((await post(PATHS.reset, { email: u.account, code, password: pw, repassword: pw }, 'en')).code).toBe(0);
      await expectRefused(s, 'code_incorrect', (lang) => post(PATHS.reset, { email: u.account, code, password: GOOD_PASSWORD, repassword: GOOD_PASSWORD }, lang));
      // A register code is not a reset code.
      const e = email('scene');
      await post(PATHS.sendcode, { email: e, scene: 'register' }, 'en');
      const regCode = await lastCode(s.db, e);
      await expectRefused(s, 'email_not_in_use', (lang) => post(PATHS.reset, { email: e, code: regCode, password: pw, repassword: pw }, lang));
    });
  });
});

describe('bulk registration and closed registration', () => {
  it('refuses more codes or registrations per IP per hour than configured', async () => {
    const b = await startTestServer({ CODES_PER_IP_PER_HOUR: '2', REGISTRATIONS_PER_IP_PER_HOUR: '1' });
    try {
      const first = await registerUser(b, email('bulk1')); // code 1, registration 1
      expect(first.mem_id).toBeGreaterThan(0);
      const e2 = email('bulk2');
      expect((await b.api('POST', PATHS.sendcode, { email: e2, scene: 'register' })).code).toBe(0); // code 2
      const code2 = await lastCode(b.db, e2);
      await expectRefused(b, 'bulk_registration', (lang) => b.api('POST', PATHS.sendcode, { email: email('bulk3'), scene: 'register' }, { lang }));
      await expectRefused(b, 'bulk_registration', (lang) =>
        b.api('POST', PATHS.register, { email: e2, code: code2, password: GOOD_PASSWORD, repassword: GOOD_PASSWORD, agree: true }, { lang }),
      );
      // The refusal did not spend the code; an hour later both work again (with a fresh code: the first expired).
      const codeRow = await b.db.selectFrom('verification_codes').selectAll().where('email', '=', e2).executeTakeFirstOrThrow();
      expect(codeRow).toMatchObject({ used_at: null, tries: 0 });
      b.clock.advance(HOUR + 1000);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + HOUR + 1000 }); // the throttles' own clock
      expect((await b.api('POST', PATHS.sendcode, { email: e2, scene: 'register' })).code).toBe(0);
      const fresh = await lastCode(b.db, e2);
      expect((await b.api('POST', PATHS.register, { email: e2, code: fresh, password: GOOD_PASSWORD, repassword: GOOD_PASSWORD, agree: true })).code).toBe(0);
      expect((await b.api('POST', PATHS.sendcode, { email: email('bulk4'), scene: 'register' })).code).toBe(0);
      await expectRefused(b, 'bulk_registration', (lang) => b.api('POST', PATHS.sendcode, { email: email('bulk5'), scene: 'register' }, { lang }));
    } finally {
      vi.useRealTimers();
      await b.close();
    }
  });

  it('REGISTRATION_OPEN=false restricts registration but not login or reset', async () => {
    const c = await startTestServer({ REGISTRATION_OPEN: 'false' });
    try {
      expect((await c.api('GET', PATHS.baseconfig)).data.registration_open).toBe(false);
      await expectRefused(c, 'registration_closed', (lang) => c.api('POST', PATHS.sendcode, { email: email('closed'), scene: 'register' }, { lang }));
      await expectRefused(c, 'registration_closed', (lang) => c.api('POST', PATHS.register, regBody(), { lang }));
      expect((await login(c, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password)).code).toBe(0);
      expect((await c.api('POST', PATHS.sendcode, { email: DEMO_ACCOUNT.email, scene: 'reset' })).code).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe('login', () => {
  it('logs in with email and password, case-insensitively on the email', async () => {
    const u = await registerUser(s, email('login'));
    const res = await login(s, u.account.toUpperCase(), u.password);
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ mem_id: u.mem_id, account: u.account, type: 'personal' });
    expect(res.data.token).not.toBe(u.token);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: res.data.token })).data.mem_id).toBe(u.mem_id);
    // "Bearer <token>" is accepted too.
    expect((await s.api('GET', PATHS.userInfo, {}, { token: `Bearer ${res.data.token}` })).code).toBe(0);
    const demo = await login(s, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    expect(demo.data).toMatchObject({ realname: 'Alex Tan', account: DEMO_ACCOUNT.email });
  });

  it('answers the catalogue errors of its fields in en and cn, changing nothing', async () => {
    const l = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.login, { email: DEMO_ACCOUNT.email, password: 'whatever', agree: true, ...over }, lang);
    await expectRefused(s, 'required', l({ email: '' }));
    await expectRefused(s, 'required', l({ password: '' }));
    await expectRefused(s, 'too_long', l({ password: 'x'.repeat(141) }), { params: { n: 140 } });
    await expectRefused(s, 'email_invalid', l({ email: 'demo' }));
    await expectRefused(s, 'terms_required', l({ agree: false }));
    await expectRefused(s, 'invalid_request', l({ type: 'visitor' }));
    await expectRefused(s, 'invalid_request', async (lang) => {
      const res = await s.raw('POST', PATHS.login, { query: `lang=${lang}`, headers: { 'Content-Type': 'application/json' }, body: 'not json' });
      return (await res.json()) as Envelope;
    });
    await expectRefused(s, 'login_incorrect', l({ email: email('nobody') }));
  });

  it('a wrong password answers login_incorrect and counts; 5 in a row lock login until a reset', async () => {
    const u = await registerUser(s, email('lock'));
    await expectRefused(s, 'login_incorrect', (lang) => post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, lang), { mask: withoutLoginFails });
    await post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, 'en'); // 3
    await post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, 'en'); // 4
    const fifth = await post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, 'cn');
    expect(fifth).toMatchObject(refusal('login_locked', 'cn'));
    await expectRefused(s, 'login_locked', (lang) => post(PATHS.login, { email: u.account, password: u.password, agree: true }, lang));
    const info = await s.api('GET', PATHS.userInfo, {}, { token: u.token });
    expect(info.data.login_locked).toBe(true);
  });

  it('a success before the 5th wrong password resets the counter', async () => {
    const u = await registerUser(s, email('reset-count'));
    const wrong = () => post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, 'en');
    for (let i = 0; i < 4; i++) expect((await wrong()).code).toBe(refusal('login_incorrect').code);
    expect((await login(s, u.account, u.password)).code).toBe(0);
    for (let i = 0; i < 4; i++) expect((await wrong()).code).toBe(refusal('login_incorrect').code);
    expect((await login(s, u.account, u.password)).code).toBe(0);
    const row = await s.db.selectFrom('users').select(['login_fails', 'login_locked']).where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ login_fails: 0, login_locked: 0 });
  });

  it('a disabled user cannot log in, and its sessions end', async () => {
    const u = await registerUser(s, email('disabled'));
    await s.db.updateTable('users').set({ disabled: 1 }).where('id', '=', u.mem_id).execute();
    await expectRefused(s, 'user_disabled', (lang) => post(PATHS.login, { email: u.account, password: u.password, agree: true }, lang));
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { token: u.token, lang }));
    await s.db.updateTable('users').set({ disabled: 0 }).where('id', '=', u.mem_id).execute();
    expect((await login(s, u.account, u.password)).code).toBe(0);
  });
});

describe('logout, visitor, sessions', () => {
  it('logout revokes the token: then user/info and logout answer code -1', async () => {
    const u = await registerUser(s, email('logout'));
    const other = await login(s, u.account, u.password);
    expect((await s.api('POST', PATHS.logout, {}, { token: u.token })).code).toBe(0);
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { token: u.token, lang }));
    await expectRefused(s, 'session_expired', (lang) => s.api('POST', PATHS.logout, {}, { token: u.token, lang }));
    // Only that session ended.
    expect((await s.api('GET', PATHS.userInfo, {}, { token: other.data.token })).code).toBe(0);
    const row = await s.db.selectFrom('sessions').select('revoked_at').where('token_hash', '=', sha256(u.token)).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBe(s.clock.now());
  });

  it('a visitor gets a guest token; user/info answers type visitor without a wallet', async () => {
    const v = await s.api('POST', PATHS.visitor, {});
    expect(v.code).toBe(0);
    expect(v.data).toMatchObject({ mem_id: 0, type: 'visitor', account: '' });
    expect(v.data.token).toMatch(/^[\w-]{40,}$/);
    const info = await s.api('GET', PATHS.userInfo, {}, { token: v.data.token });
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({ mem_id: 0, type: 'visitor', wallet: null, email: '' });
    const row = await s.db.selectFrom('sessions').selectAll().where('token_hash', '=', sha256(v.data.token)).executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
    expect((await s.api('POST', PATHS.logout, {}, { token: v.data.token })).code).toBe(0);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: v.data.token })).code).toBe(-1);
  });

  it('a visitor is told guests cannot perform the operation on every signed-in-only endpoint', async () => {
    // docs/product.md#roles: a visitor can browse, and every action answers guest_forbidden. Endpoints are
    // taken from the running app, so new ones are covered as they are added.
    const userOnly = new Set<string>([
      PATHS.userWithdpwd, PATHS.userCard, PATHS.userProfile, PATHS.userLoginpwd, PATHS.notifications,
      PATHS.walletTopup, PATHS.walletTopups, PATHS.walletWithdraw, PATHS.walletWithdrawals, PATHS.walletFundlogs,
      PATHS.orderBuy, PATHS.orderBook, PATHS.orderFinalpay, PATHS.orderSell, PATHS.orderLists, PATHS.orderCredits,
    ].filter(Boolean).map((p) => API_BASE + p));
    const routes = createApp(s.running.deps, {}).routes.filter((r) => userOnly.has(r.path) && (r.method === 'GET' || r.method === 'POST'));
    expect(routes.length, 'no signed-in-only endpoint is mounted yet').toBeGreaterThan(0);
    const guest = (await s.api('POST', PATHS.visitor, {})).data.token as string;
    for (const r of routes) {
      const p = r.path.slice(API_BASE.length);
      const method = r.method as 'GET' | 'POST';
      await expectRefused(s, 'guest_forbidden', (lang) => s.api(method, p, {}, { token: guest, lang, idempotencyKey: `guest-${lang}-${p}` }));
      await expectRefused(s, 'session_expired', (lang) => s.api(method, p, {}, { lang, idempotencyKey: `none-${lang}-${p}` }));
    }
  });

  it('no token, garbage tokens and unknown tokens answer session_expired (code -1)', async () => {
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { lang }));
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { lang, token: 'garbage' }));
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { lang, token: 'x'.repeat(43) }));
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { lang, token: 'y'.repeat(5000) }));
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { lang, token: "' OR 1=1 --aaaaaaaaaaaaaaaa" }));
    await expectRefused(s, 'session_expired', (lang) => s.api('POST', PATHS.logout, {}, { lang, token: 'Bearer ' + 'z'.repeat(43) }));
    expect(refusal('session_expired').code).toBe(-1);
  });

  it('a token expires 30 days after its last use (sliding)', async () => {
    const u = await registerUser(s, email('expiry'));
    const sliding = (await login(s, u.account, u.password)).data.token;
    s.clock.advance(20 * DAY);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: sliding })).code).toBe(0); // extends to day 50
    s.clock.advance(10 * DAY); // day 30: the unused token has expired, the used one has not
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { token: u.token, lang }));
    s.clock.advance(15 * DAY); // day 45
    expect((await s.api('GET', PATHS.userInfo, {}, { token: sliding })).code).toBe(0); // extends to day 75
    s.clock.advance(30 * DAY - 1000);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: sliding })).code).toBe(0);
    s.clock.advance(30 * DAY);
    await expectRefused(s, 'session_expired', (lang) => s.api('GET', PATHS.userInfo, {}, { token: sliding, lang }));
  });
});

describe('reset password', () => {
  it('sets the new password and revokes every session; a login lock holds until an operator unlocks it', async () => {
    const u = await registerUser(s, email('reset'));
    const second = (await login(s, u.account, u.password)).data.token;
    for (let i = 0; i < 5; i++) await post(PATHS.login, { email: u.account, password: 'Wrong2026x', agree: true }, 'en');
    expect((await login(s, u.account, u.password)).code).toBe(refusal('login_locked').code);

    expect((await post(PATHS.sendcode, { email: u.account, scene: 'reset' }, 'en')).code).toBe(0);
    const code = await lastCode(s.db, u.account);
    const pw = 'Renewed2026z';
    const r = (over: Record<string, unknown>) => (lang: Lang) => post(PATHS.reset, { email: u.account, code, password: pw, repassword: pw, ...over }, lang);
    await expectRefused(s, 'required', r({ email: '' }));
    await expectRefused(s, 'email_invalid', r({ email: 'x@' }));
    await expectRefused(s, 'code_format', r({ code: '1' }));
    await expectRefused(s, 'required', r({ password: '' }));
    await expectRefused(s, 'login_password_weak', r({ password: 'weakpass', repassword: 'weakpass' }));
    await expectRefused(s, 'password_mismatch', r({ repassword: 'Renewed2026y' }));
    await expectRefused(s, 'email_not_in_use', r({ email: email('ghost') }));
    await expectRefused(s, 'invalid_request', async (lang) => {
      const res = await s.raw('POST', PATHS.reset, { query: `lang=${lang}`, headers: { 'Content-Type': 'application/json' }, body: 'null' });
      return (await res.json()) as Envelope;
    });

    expect((await r({})('en')).code).toBe(0);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: u.token })).code).toBe(-1);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: second })).code).toBe(-1);
    // docs/product.md#accounts: locked "until an operator unlocks it" — a reset does not lift the lock.
    expect((await login(s, u.account, pw)).code).toBe(refusal('login_locked').code);
    const unlocked = await runCli(['user:unlock', u.account], { DATA_DIR: s.dataDir });
    expect(unlocked.code).toBe(0);
    await expectRefused(s, 'login_incorrect', (lang) => post(PATHS.login, { email: u.account, password: u.password, agree: true }, lang), { mask: withoutLoginFails });
    const fresh = await login(s, u.account, pw);
    expect(fresh.code).toBe(0);
    const row = await s.db.selectFrom('users').select(['login_fails', 'login_locked']).where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ login_fails: 0, login_locked: 0 });
  }, CLI_TEST_TIMEOUT_MS); // starts the operator CLI (npx tsx, cold), which alone can pass 30 s on a loaded machine

  it('a disabled user cannot reset', async () => {
    const u = await registerUser(s, email('reset-disabled'));
    await post(PATHS.sendcode, { email: u.account, scene: 'reset' }, 'en');
    const code = await lastCode(s.db, u.account);
    await s.db.updateTable('users').set({ disabled: 1 }).where('id', '=', u.mem_id).execute();
    await expectRefused(s, 'user_disabled', (lang) => post(PATHS.reset, { email: u.account, code, password: 'Renewed2026z', repassword: 'Renewed2026z' }, lang));
  });

  it('sendcode for reset refuses an unknown email and a second code within a minute', async () => {
    const u = await registerUser(s, email('reset-soon'));
    await expectRefused(s, 'email_not_in_use', (lang) => post(PATHS.sendcode, { email: email('nobody'), scene: 'reset' }, lang));
    expect((await post(PATHS.sendcode, { email: u.account, scene: 'reset' }, 'en')).code).toBe(0);
    await expectRefused(s, 'code_too_soon', (lang) => post(PATHS.sendcode, { email: u.account, scene: 'reset' }, lang));
  });
});
