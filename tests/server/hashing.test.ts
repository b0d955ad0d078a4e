// Password hashing: argon2id, old scrypt hashes still verify and are replaced at the next
// right password, and hash work runs in bounded lanes: an anonymous flood is refused fast (429) instead of
// queueing forever, and never takes the slots of a signed-in user's payment check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { hashPasswordScrypt, verifyPassword } from '../../src/server/lib/crypto';
import { login, refusal, registerUser, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi, TRADE_PASSWORD } from './market-helpers';
import { uniqueEmail } from './wallet-helpers';

describe('argon2id and the scrypt upgrade', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SEED_DEMO: 'false' });
  });
  afterAll(async () => {
    await s.close();
  });

  it('a login password stored as scrypt verifies once and is then argon2id', async () => {
    const u = await registerUser(s, uniqueEmail('upgrade'));
    await s.db.updateTable('users').set({ password_hash: await hashPasswordScrypt(u.password, 12) }).where('id', '=', u.mem_id).execute();
    expect((await login(s, u.account, 'Wrong2026pass')).code).toBe(refusal('login_incorrect').code);
    const still = await s.db.selectFrom('users').select('password_hash').where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(still.password_hash.startsWith('scrypt$')).toBe(true); // a wrong password upgrades nothing
    expect((await login(s, u.account, u.password)).code).toBe(0);
    const row = await s.db.selectFrom('users').select(['password_hash', 'login_fails']).where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(row.login_fails).toBe(0);
    expect(await verifyPassword(u.password, row.password_hash)).toBe(true);
    expect((await login(s, u.account, u.password)).code).toBe(0);
  });

  it('a payment password stored as scrypt pays an order and is then argon2id', async () => {
    const u = await makeUser(s, { cents: 100_000 }); // its payment password is an scrypt hash
    const pid = await makeProject(s);
    expect((await orderApi(s).buy(u, pid, 1)).code).toBe(0);
    const row = await s.db.selectFrom('users').select('withdraw_password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.withdraw_password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(TRADE_PASSWORD, row.withdraw_password_hash!)).toBe(true);
  });

  it('argon2id with other parameters is rehashed to the configured ones', async () => {
    const other = await startTestServer({ SEED_DEMO: 'false', ARGON2_MEMORY_KIB: '2048' });
    try {
      const u = await registerUser(s, uniqueEmail('params'));
      const hash = (await s.db.selectFrom('users').select('password_hash').where('id', '=', u.mem_id).executeTakeFirstOrThrow()).password_hash;
      const v = await registerUser(other, uniqueEmail('params2'));
      await other.db.updateTable('users').set({ password_hash: hash }).where('id', '=', v.mem_id).execute(); // m=1024: not what `other` wants
      expect((await login(other, v.account, u.password)).code).toBe(0);
      const row = await other.db.selectFrom('users').select('password_hash').where('id', '=', v.mem_id).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=2048,t=1,p=1\$/);
    } finally {
      await other.close();
    }
  });
});

describe('bounded hash lanes', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The production argon2id cost, one anonymous hash at a time, a short wait bound.
    s = await startTestServer({
      SEED_DEMO: 'false',
      ARGON2_MEMORY_KIB: '19456',
      ARGON2_TIME_COST: '2',
      HASH_CONCURRENCY_ANON: '1',
      HASH_CONCURRENCY_USER: '2',
      HASH_MAX_WAIT_MS: '300',
      LOGINS_PER_IP_PER_HOUR: '100000',
      LOGINS_PER_ACCOUNT_PER_HOUR: '100000',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('an anonymous login flood is refused fast with 429, and a buyer\'s payment check still runs meanwhile', async () => {
    const buyer = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s);
    const api = orderApi(s);
    expect((await api.buy(buyer, pid, 1)).code).toBe(0); // upgrades the test hash to production argon2id first
    const flood = Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        s.raw('POST', PATHS.login, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: `nobody${i}@example.sg`, password: 'Wrong2026pass', agree: true }) }),
      ),
    );
    const orders = await Promise.all([api.buy(buyer, pid, 1), api.buy(buyer, pid, 1)]);
    const answers = await flood;
    expect(orders.map((o) => o.code)).toEqual([0, 0]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0); // refused, not left hanging
    for (const r of answers.filter((x) => x.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(statuses.every((x) => x === 200 || x === 429)).toBe(true);
  });
});
