// Passkeys over real HTTP with a software authenticator (docs/product.md#passkeys): adding one (login
// password first), signing in with it as a login, and every refusal: another origin or RP ID, a replayed
// assertion (its challenge used, or its counter gone back), a removed passkey, an expired challenge, a
// locked or disabled account, another member's passkey, a visitor. A passkey session ends on a password
// change like any other. Refusals are checked in en and cn with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { ErrorKey, Lang, MessageParams } from '../../src/shared/errors';
import { PASSKEYS_PER_USER_MAX } from '../../src/shared/constants';
import { MIN, dbSnapshot, login, refusal, registerUser, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { onPostgres } from '../helpers/database';
import { SoftAuthenticator, type CreationOptions, type RequestOptions } from '../helpers/authenticator';

const ORIGIN = 'https://canopy.test';
const LANGS: Lang[] = ['en', 'cn'];

let s: TestServer;
let seq = 0;
const email = () => `passkey.${++seq}@example.sg`;
const key = () => `pk-${++seq}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  s = await startTestServer({ PUBLIC_URL: ORIGIN, LOGINS_PER_IP_PER_HOUR: '1000', REGISTRATIONS_PER_IP_PER_HOUR: '1000', CODES_PER_IP_PER_HOUR: '1000', PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '10000', PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR: '100' });
});
afterAll(async () => {
  await s?.close();
});

const userEvents = async (userId: number) =>
  (await s.db.selectFrom('live_events').select('payload').where('user_id', '=', userId).orderBy('id').execute()).map((r) => JSON.parse(r.payload) as unknown);

const snapshot = async () => ({ ...(await dbSnapshot(s.db)), passkeys: await s.db.selectFrom('passkeys').selectAll().orderBy('id').execute() });

async function expectRefused(k: ErrorKey, call: (lang: Lang) => Promise<Envelope>, params?: MessageParams) {
  for (const lang of LANGS) {
    const before = await snapshot();
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${k} in ${lang}`).toEqual(refusal(k, lang, params));
    expect(await snapshot(), `${k} in ${lang} changed nothing`).toEqual(before);
  }
}

const creationOptions = (token: string, password: string, lang?: Lang) => s.api<CreationOptions>('POST', PATHS.passkeyOptions, { password }, { token, lang, idempotencyKey: key() });
const requestOptions = async () => (await s.api<RequestOptions>('POST', PATHS.passkeyLoginOptions, {})).data;
const add = (token: string, name: string, credential: unknown, lang?: Lang) => s.api('POST', PATHS.passkeyAdd, { name, credential }, { token, lang, idempotencyKey: key() });
const signIn = (credential: unknown, lang?: Lang) => s.api('POST', PATHS.passkeyLogin, { credential }, { lang });

/** A member with one passkey on `auth`. */
async function memberWithPasskey(auth = new SoftAuthenticator()) {
  const member = await registerUser(s, email());
  const options = await creationOptions(member.token, member.password);
  expect(options.code).toBe(0);
  const added = await add(member.token, 'Pixel 9', auth.create(options.data, ORIGIN));
  expect(added.code, added.msg).toBe(0);
  return { member, auth, passkeyId: added.data.id as number };
}

describe('adding a passkey', () => {
  it('asks the login password, then keeps the passkey with its device name; the list shows it unused', async () => {
    const member = await registerUser(s, email());
    const options = await creationOptions(member.token, member.password);
    expect(options.code).toBe(0);
    expect(options.data.rp.id).toBe('canopy.test');
    expect(options.data).toMatchObject({ authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, attestation: 'none' });
    const auth = new SoftAuthenticator();
    const eventsBefore = await userEvents(member.mem_id);
    const added = await add(member.token, 'Pixel 9', auth.create(options.data, ORIGIN));
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ name: 'Pixel 9', last_used_at: null });
    expect((await userEvents(member.mem_id)).slice(eventsBefore.length)).toEqual([{ type: 'invalidate', tables: ['user'] }]);
    const list = await s.api('GET', PATHS.passkeys, {}, { token: member.token });
    expect(list.data.list).toEqual([added.data]);
    // The next options exclude it, so the same authenticator is not added twice.
    const again = await creationOptions(member.token, member.password);
    expect(again.data.excludeCredentials).toEqual([{ id: auth.id, type: 'public-key', transports: ['internal'] }]);
  });

  it('refuses a wrong login password (counted toward the login lock) and a visitor', async () => {
    const member = await registerUser(s, email());
    for (const lang of LANGS) {
      const res = await creationOptions(member.token, 'Wrong2026x', lang);
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('password_incorrect', lang));
    }
    const row = await s.db.selectFrom('users').select('login_fails').where('id', '=', member.mem_id).executeTakeFirstOrThrow();
    expect(Number(row.login_fails)).toBe(2);
    const visitor = await s.api('POST', PATHS.visitor, {});
    await expectRefused('guest_forbidden', (lang) => creationOptions(visitor.data.token, 'whatever', lang));
  });

  it('refuses a response made at another origin, for another RP ID, or to a challenge never handed out', async () => {
    const member = await registerUser(s, email());
    const auth = new SoftAuthenticator();
    for (const lang of LANGS) {
      const options = (await creationOptions(member.token, member.password)).data;
      const before = await snapshot();
      const res = await add(member.token, 'Phone', auth.create(options, 'https://canopy.evil'), lang);
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('passkey_not_added', lang));
      expect(await snapshot()).toEqual(before);
    }
    const options = (await creationOptions(member.token, member.password)).data;
    expect((await add(member.token, 'Phone', auth.create(options, ORIGIN, { rpId: 'canopy.evil' }))).code).toBe(refusal('passkey_not_added').code);
    expect((await add(member.token, 'Phone', auth.create({ ...options, challenge: 'bm90LWhhbmRlZC1vdXQ' }, ORIGIN))).code).toBe(refusal('passkey_not_added').code);
    // Another member's challenge is not this member's.
    const other = await registerUser(s, email());
    const theirs = (await creationOptions(other.token, other.password)).data;
    expect((await add(member.token, 'Phone', auth.create(theirs, ORIGIN))).code).toBe(refusal('passkey_not_added').code);
    expect((await s.api('GET', PATHS.passkeys, {}, { token: member.token })).data.list).toEqual([]);
  });

  it(`keeps at most ${PASSKEYS_PER_USER_MAX}, refused before the password is asked`, async () => {
    const { member } = await memberWithPasskey();
    for (let i = 1; i < PASSKEYS_PER_USER_MAX; i++) {
      const options = (await creationOptions(member.token, member.password)).data;
      expect((await add(member.token, `Key ${i}`, new SoftAuthenticator().create(options, ORIGIN))).code).toBe(0);
    }
    await expectRefused('passkeys_full', (lang) => creationOptions(member.token, 'Wrong2026x', lang), { n: PASSKEYS_PER_USER_MAX });
  });
});

describe('signing in with a passkey', () => {
  it('opens a session like a login: user info answers, the passkey shows its last use', async () => {
    const { member, auth } = await memberWithPasskey();
    s.clock.advance(5 * MIN);
    const res = await signIn(auth.get(await requestOptions(), ORIGIN));
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toMatchObject({ mem_id: member.mem_id, account: member.account, type: 'personal' });
    const info = await s.api('GET', PATHS.userInfo, {}, { token: res.data.token });
    expect(info.code).toBe(0);
    const list = await s.api('GET', PATHS.passkeys, {}, { token: res.data.token });
    expect(list.data.list[0].last_used_at_ms).toBe(s.clock.now());
  });

  it('refuses another origin and another RP ID, in both languages, changing nothing', async () => {
    const { auth } = await memberWithPasskey();
    await expectRefused('passkey_failed', async (lang) => signIn(auth.get(await requestOptions(), 'https://canopy.evil'), lang));
    await expectRefused('passkey_failed', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN, { rpId: 'canopy.evil' }), lang));
    await expectRefused('passkey_failed', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN, { type: 'webauthn.create' }), lang));
  });

  it('refuses a replayed assertion: its challenge is used; a fresh challenge with the counter wound back too', async () => {
    const { auth } = await memberWithPasskey();
    const assertion = auth.get(await requestOptions(), ORIGIN);
    expect((await signIn(assertion)).code).toBe(0);
    await expectRefused('passkey_failed', (lang) => signIn(assertion, lang));
    auth.counter -= 2; // the next assertion carries the counter the server has already seen
    await expectRefused('passkey_failed', async (lang) => {
      const res = await signIn(auth.get(await requestOptions(), ORIGIN), lang);
      auth.counter -= 1;
      return res;
    });
  });

  it('refuses an assertion naming another account than the one the passkey was made for', async () => {
    const { auth } = await memberWithPasskey();
    auth.userHandle = Buffer.from('someone-else').toString('base64url');
    await expectRefused('passkey_failed', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN), lang));
  });

  it('gives one session for the same assertion sent 40 times at once', async () => {
    const { auth } = await memberWithPasskey();
    const assertion = auth.get(await requestOptions(), ORIGIN);
    const answers = await Promise.all(Array.from({ length: 40 }, () => signIn(assertion)));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.code !== 0).every((a) => a.code === refusal('passkey_failed').code)).toBe(true);
  });

  it('refuses an expired challenge and a challenge handed out for adding a passkey', async () => {
    const { member, auth } = await memberWithPasskey();
    const options = await requestOptions();
    s.clock.advance(3 * MIN);
    await expectRefused('passkey_failed', (lang) => signIn(auth.get(options, ORIGIN), lang));
    const creation = (await creationOptions(member.token, member.password)).data;
    expect((await signIn(auth.get({ challenge: creation.challenge, rpId: 'canopy.test' }, ORIGIN))).code).toBe(refusal('passkey_failed').code);
  });

  it('refuses a removed passkey; another member cannot remove it', async () => {
    const { member, auth, passkeyId } = await memberWithPasskey();
    const other = await registerUser(s, email());
    await expectRefused('not_found', (lang) => s.api('POST', PATHS.passkeyRemove, { id: passkeyId }, { token: other.token, lang, idempotencyKey: key() }));
    const eventsBefore = await userEvents(member.mem_id);
    const removed = await s.api('POST', PATHS.passkeyRemove, { id: passkeyId }, { token: member.token, idempotencyKey: key() });
    expect(removed.code).toBe(0);
    // The member's other devices are told to refresh, in the same transaction.
    expect((await userEvents(member.mem_id)).slice(eventsBefore.length)).toEqual([{ type: 'invalidate', tables: ['user'] }]);
    expect((await s.api('GET', PATHS.passkeys, {}, { token: member.token })).data.list).toEqual([]);
    await expectRefused('passkey_failed', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN), lang));
  });

  it('ends the passkey session when the login password changes elsewhere', async () => {
    const { member, auth } = await memberWithPasskey();
    const viaPasskey = await signIn(auth.get(await requestOptions(), ORIGIN));
    expect(viaPasskey.code).toBe(0);
    const viaPassword = await login(s, member.account, member.password);
    const changed = await s.api('POST', PATHS.userLoginpwd, { old_password: member.password, password: 'Canopy2027b', repassword: 'Canopy2027b' }, { token: viaPassword.data.token, idempotencyKey: key() });
    expect(changed.code, changed.msg).toBe(0);
    expect((await s.api('GET', PATHS.userInfo, {}, { token: viaPasskey.data.token })).code).toBe(refusal('session_expired').code);
    // The passkey itself stays: it is not derived from the password.
    expect((await signIn(auth.get(await requestOptions(), ORIGIN))).code).toBe(0);
  });

  it('keeps the login lock and a disabled account, as a login does', async () => {
    const { member, auth } = await memberWithPasskey();
    await s.db.updateTable('users').set({ login_locked: 1 }).where('id', '=', member.mem_id).execute();
    await expectRefused('login_locked', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN), lang));
    await s.db.updateTable('users').set({ login_locked: 0, disabled: 1 }).where('id', '=', member.mem_id).execute();
    await expectRefused('user_disabled', async (lang) => signIn(auth.get(await requestOptions(), ORIGIN), lang));
  });

  it('lets a risk account sign in, as a login does', async () => {
    const { member, auth } = await memberWithPasskey();
    await s.db.updateTable('users').set({ risk: 1 }).where('id', '=', member.mem_id).execute();
    expect((await signIn(auth.get(await requestOptions(), ORIGIN))).code).toBe(0);
  });

  it('refuses a malformed or hostile body', async () => {
    await expectRefused('invalid_request', (lang) => signIn({ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: '!!' } }, lang));
    const res = await s.raw('POST', PATHS.passkeyLogin, { headers: { 'Content-Type': 'application/json' }, body: '{"credential":{"__proto__":{"a":1}}}' });
    expect((await res.json()).code).toBe(refusal('invalid_request').code);
  });
});

// Several instances behind one address share one PUBLIC_URL and one database: a challenge handed out by one
// is checked by another, and used once across both. SQLite is one instance by design, so PostgreSQL only.
describe.skipIf(!onPostgres)('two instances behind one address', () => {
  let b: TestServer;
  beforeAll(async () => {
    // The instances' clocks agree, as servers' clocks do.
    b = await startTestServer({ DATA_DIR: s.dataDir, PUBLIC_URL: ORIGIN, PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '10000', LOGINS_PER_IP_PER_HOUR: '1000' }, { now: s.clock.now() });
  });
  afterAll(async () => {
    await b?.running.close();
  });

  it('adds on one and signs in on the other; the assertion replayed on the first is refused', async () => {
    const member = await registerUser(s, email());
    const auth = new SoftAuthenticator();
    const options = await creationOptions(member.token, member.password);
    const added = await b.api('POST', PATHS.passkeyAdd, { name: 'Tablet', credential: auth.create(options.data, ORIGIN) }, { token: member.token, idempotencyKey: key() });
    expect(added.code, added.msg).toBe(0);
    const challenge = (await b.api<RequestOptions>('POST', PATHS.passkeyLoginOptions, {})).data;
    const assertion = auth.get(challenge, ORIGIN);
    expect((await signIn(assertion)).code).toBe(0);
    expect((await b.api('POST', PATHS.passkeyLogin, { credential: assertion })).code).toBe(refusal('passkey_failed').code);
  });
});
