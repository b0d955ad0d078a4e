// Passkeys on a server started with HOST and no PUBLIC_URL (docs/product.md#passkeys): browsers refuse an
// IP address as the RP ID, so the RP is the page's own host name when the page is one of the addresses
// the server answers at (localhost), and an IP address host is told that passkeys need a name (3031),
// changing nothing. Real HTTP, both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { dbSnapshot, refusal, registerUser, startTestServer, type TestServer } from '../helpers/server';
import { SoftAuthenticator, type CreationOptions, type RequestOptions } from '../helpers/authenticator';
import { passkeyStartNote } from '../../src/server/modules/passkey/relying-party';
import { loadConfig } from '../../src/server/config';

const LANGS: Lang[] = ['en', 'cn'];
let s: TestServer;
let seq = 0;
const key = () => `pkh-${++seq}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  s = await startTestServer({ LOGINS_PER_IP_PER_HOUR: '1000', REGISTRATIONS_PER_IP_PER_HOUR: '1000', CODES_PER_IP_PER_HOUR: '1000', PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '10000' });
});
afterAll(async () => {
  await s?.close();
});

const snapshot = async () => ({ ...(await dbSnapshot(s.db)), passkeys: await s.db.selectFrom('passkeys').selectAll().execute(), challenges: await s.db.selectFrom('passkey_challenges').selectAll().execute() });
const at = (origin: string) => ({ Origin: origin });

describe('a server started with HOST=127.0.0.1 and no PUBLIC_URL', () => {
  it('makes and signs in with a passkey at http://localhost:PORT, its RP ID the page host name', async () => {
    const origin = `http://localhost:${s.port}`;
    const member = await registerUser(s, `host.${process.pid}.${++seq}@example.sg`);
    const options = await s.api<CreationOptions>('POST', PATHS.passkeyOptions, { password: member.password }, { token: member.token, idempotencyKey: key(), headers: at(origin) });
    expect(options.code, options.msg).toBe(0);
    expect(options.data.rp.id).toBe('localhost');
    const auth = new SoftAuthenticator();
    const added = await s.api('POST', PATHS.passkeyAdd, { name: 'Laptop', credential: auth.create(options.data, origin) }, { token: member.token, idempotencyKey: key(), headers: at(origin) });
    expect(added.code, added.msg).toBe(0);
    const ask = await s.api<RequestOptions>('POST', PATHS.passkeyLoginOptions, {}, { headers: at(origin) });
    expect(ask.code, ask.msg).toBe(0);
    expect(ask.data.rpId).toBe('localhost');
    const signed = await s.api('POST', PATHS.passkeyLogin, { credential: auth.get(ask.data, origin) }, { headers: at(origin) });
    expect(signed.code, signed.msg).toBe(0);
    expect(signed.data.mem_id).toBe(member.mem_id);
  });

  it('at its IP address, or from a page it does not serve, says passkeys need a host name and changes nothing', async () => {
    const member = await registerUser(s, `host.${process.pid}.${++seq}@example.sg`);
    for (const origin of [`http://127.0.0.1:${s.port}`, `http://evil.example:${s.port}`]) {
      for (const lang of LANGS) {
        const before = await snapshot();
        const options = await s.api('POST', PATHS.passkeyOptions, { password: member.password }, { token: member.token, lang, idempotencyKey: key(), headers: at(origin) });
        expect({ code: options.code, msg: options.msg }, origin).toEqual(refusal('passkey_needs_name', lang));
        const ask = await s.api('POST', PATHS.passkeyLoginOptions, {}, { lang, headers: at(origin) });
        expect({ code: ask.code, msg: ask.msg }, origin).toEqual(refusal('passkey_needs_name', lang));
        expect(await snapshot()).toEqual(before);
      }
    }
  });
});

describe('the start-up note', () => {
  it('says once where passkeys work, or that they cannot', () => {
    const derived = { ...loadConfig({ HOST: '127.0.0.1', PORT: '8080' }), PUBLIC_URL: 'http://127.0.0.1:8080', PUBLIC_URL_DERIVED: true };
    expect(passkeyStartNote(derived)).toBe('Passkeys work at http://localhost:8080 (a host name); browsers refuse them at an IP address such as 127.0.0.1.');
    expect(passkeyStartNote({ ...loadConfig({ PUBLIC_URL: 'http://192.168.1.5:8080' }) })).toMatch(/^PUBLIC_URL names an IP address \(192\.168\.1\.5\): passkeys cannot work/);
    expect(passkeyStartNote(loadConfig({ PUBLIC_URL: 'https://canopy.sg' }))).toBeNull();
  });
});
