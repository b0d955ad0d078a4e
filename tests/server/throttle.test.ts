// Throttles on the anonymous doors (docs/product.md#limits): per address and per account, HTTP 429 with the
// catalogue message in the user's language and Retry-After, nothing changed by a refused request; the
// address behind a trusted proxy is the hop the proxy added, never the client's own leftmost entry.
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { addressOf } from '../../src/server/lib/http';
import { COMMANDS } from '../../src/server/ops/registry';
import { dbSnapshot, lastCode, refusal, registerUser, startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from './wallet-helpers';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((x) => x.close()));
  servers = [];
});

async function server(env: Record<string, string>): Promise<TestServer> {
  const s = await startTestServer({
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    CODES_PER_IP_PER_HOUR: '1000',
    SEED_DEMO: 'false',
    // Set-up registers up to 30 accounts at once from one address: the hash lanes' per-client cap and wait
    // estimate (tested in hashing.test.ts) must not refuse them on a loaded machine.
    HASH_MAX_WAIT_MS: '60000',
    HASH_JOBS_PER_CLIENT: '1000',
    ...env,
  });
  servers.push(s);
  return s;
}

/** The raw answer, for status and headers. */
async function post(s: TestServer, p: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await s.raw('POST', p, { headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { code: number; msg: string } };
}

describe('login', () => {
  it('30 accounts x 1 wrong guess from one address: the address limit stops the guesses past it', async () => {
    const s = await server({ LOGINS_PER_IP_PER_HOUR: '20' });
    const emails = await Promise.all(Array.from({ length: 30 }, async (_, i) => (await registerUser(s, uniqueEmail(`ip${i}`))).account));
    const answers = [];
    for (const email of emails) answers.push(await post(s, PATHS.login, { email, password: 'Wrong2026pass', agree: true, lang: answers.length % 2 ? 'cn' : 'en' }));
    const evaluated = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(evaluated).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const [i, a] of answers.entries()) {
      if (a.status !== 429) continue;
      expect({ code: a.body.code, msg: a.body.msg }).toEqual(refusal('too_many_requests', i % 2 ? 'cn' : 'en'));
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    // The refused guesses were never evaluated: their accounts' counters did not move.
    const fails = await s.db.selectFrom('users').select(['email', 'login_fails']).where('email', 'in', emails.slice(20)).execute();
    expect(fails.every((r) => r.login_fails === 0)).toBe(true);
  });

  it('per account: over the limit is refused before the password is looked at; right passwords do not count', async () => {
    const s = await server({ LOGINS_PER_ACCOUNT_PER_HOUR: '3' });
    const u = await registerUser(s, uniqueEmail('acct'));
    for (let i = 0; i < 5; i++) expect((await post(s, PATHS.login, { email: u.account, password: u.password, agree: true })).body.code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await post(s, PATHS.login, { email: u.account, password: 'Wrong2026pass', agree: true })).status).toBe(200);
    const before = await dbSnapshot(s.db);
    const fourth = await post(s, PATHS.login, { email: u.account, password: u.password, agree: true, lang: 'cn' });
    expect(fourth.status).toBe(429);
    expect({ code: fourth.body.code, msg: fourth.body.msg }).toEqual(refusal('too_many_requests', 'cn'));
    expect(await dbSnapshot(s.db)).toEqual(before);
  });
});

describe('codes, registration, reset', () => {
  it('verification codes per account: past the limit no mail goes out', async () => {
    const s = await server({ CODES_PER_ACCOUNT_PER_HOUR: '2' });
    const email = uniqueEmail('codes');
    for (let i = 0; i < 2; i++) {
      expect((await post(s, PATHS.sendcode, { email, scene: 'register' })).body.code).toBe(0);
      s.clock.advance(61_000); // past the one-minute resend rule
    }
    const before = await dbSnapshot(s.db);
    const third = await post(s, PATHS.sendcode, { email, scene: 'register' });
    expect(third.status).toBe(429);
    expect({ code: third.body.code, msg: third.body.msg }).toEqual(refusal('too_many_requests'));
    expect(await dbSnapshot(s.db)).toEqual(before);
  });

  it('reset per address', async () => {
    const s = await server({ RESETS_PER_IP_PER_HOUR: '2' });
    const u = await registerUser(s, uniqueEmail('reset'));
    await post(s, PATHS.sendcode, { email: u.account, scene: 'reset' });
    const code = await lastCode(s.db, u.account);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 2; i++) expect((await post(s, PATHS.reset, { email: u.account, code: wrongCode, password: 'Renewed2026z', repassword: 'Renewed2026z' })).status).toBe(200);
    const third = await post(s, PATHS.reset, { email: u.account, code, password: 'Renewed2026z', repassword: 'Renewed2026z', lang: 'cn' });
    expect(third.status).toBe(429);
    expect(third.body.msg).toBe(refusal('too_many_requests', 'cn').msg);
  });

  it('registrations per address answer "Bulk registration prohibited" with 429', async () => {
    const s = await server({ REGISTRATIONS_PER_IP_PER_HOUR: '1' });
    await registerUser(s, uniqueEmail('bulk'));
    const e = uniqueEmail('bulk2');
    await post(s, PATHS.sendcode, { email: e, scene: 'register' });
    const code = await lastCode(s.db, e);
    const res = await post(s, PATHS.register, { email: e, code, password: 'Forest2026a', repassword: 'Forest2026a', agree: true, lang: 'cn' });
    expect(res.status).toBe(429);
    expect({ code: res.body.code, msg: res.body.msg }).toEqual(refusal('bulk_registration', 'cn'));
  });
});

describe('the client address behind a proxy', () => {
  it('is the hop the trusted proxy added, never the leftmost entry the client wrote', () => {
    expect(addressOf('10.0.0.9', '1.1.1.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(addressOf('10.0.0.9', 'spoof, 203.0.113.7, 10.0.0.8', 2)).toBe('203.0.113.7');
    expect(addressOf('10.0.0.9', '203.0.113.7', 0)).toBe('10.0.0.9');
    expect(addressOf('10.0.0.9', undefined, 1)).toBe('10.0.0.9');
  });

  it('TRUST_PROXY=1: 30 codes with a forged leftmost X-Forwarded-For each, against a limit of 20: 20 sent', async () => {
    const s = await server({ TRUST_PROXY: '1', CODES_PER_IP_PER_HOUR: '20' });
    let sent = 0;
    let refused = 0;
    for (let i = 0; i < 30; i++) {
      const res = await post(s, PATHS.sendcode, { email: uniqueEmail(`xff${i}`), scene: 'register' }, { 'X-Forwarded-For': `198.51.100.${i}, 203.0.113.7` });
      if (res.body.code === 0) sent++;
      else if (res.status === 429) refused++;
    }
    expect({ sent, refused }).toEqual({ sent: 20, refused: 10 });
    // Another real client (another hop added by the proxy) is not affected.
    expect((await post(s, PATHS.sendcode, { email: uniqueEmail('other'), scene: 'register' }, { 'X-Forwarded-For': '203.0.113.8' })).body.code).toBe(0);
  });
});

describe('the operator reads and clears throttles', () => {
  it('throttle:list shows the counters of an address; throttle:clear forgets them', async () => {
    const s = await server({ LOGINS_PER_IP_PER_HOUR: '2' });
    for (let i = 0; i < 2; i++) await post(s, PATHS.login, { email: `nobody${i}@example.sg`, password: 'Wrong2026pass', agree: true });
    expect((await post(s, PATHS.login, { email: 'nobody@example.sg', password: 'Wrong2026pass', agree: true })).status).toBe(429);
    const ctx = { db: s.db, clock: s.clock, dataDir: s.dataDir };
    const listed = await COMMANDS['throttle:list']!.run(ctx, { positionals: [], flags: { key: '127.0.0.1' } });
    expect(listed.data).toEqual([expect.objectContaining({ limit: 'login_ip', key: '127.0.0.1', points: 2 })]);
    expect(listed.text).toContain('login_ip 127.0.0.1: 2 used');
    const cleared = await COMMANDS['throttle:clear']!.run(ctx, { positionals: ['127.0.0.1'], flags: {} });
    expect(cleared.data).toMatchObject({ cleared: 1 });
    expect((await post(s, PATHS.login, { email: 'nobody@example.sg', password: 'Wrong2026pass', agree: true })).status).toBe(200);
  });
});
