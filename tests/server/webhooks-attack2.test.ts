// An attacker's second pass over webhooks (docs/product.md#webhooks): where the server may be made to send
// (loopback and private ranges written every way a URL can write them, names resolving to loopback,
// redirects), who may add an endpoint, 40 parallel duplicates, and malformed bodies. Real server, real HTTP;
// the sender is run by hand. H* probes are attacks the code withstands.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../../src/server/modules/webhook/sender';
import { PATHS } from '../../src/shared/api';
import { WEBHOOK_ENDPOINTS_MAX } from '../../src/shared/schemas/webhook';
import { refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { makeUser, newKey } from './market-helpers';
import { addMember, GENEROUS, LANGS, makeOrg, write } from './org-helpers';

const BASE = { ...GENEROUS, WEBHOOK_RETRY_SCHEDULE_MS: '50', WEBHOOK_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_MANUAL_SENDS_PER_HOUR: '1000' };

let strict: TestServer;
let open: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  strict = await startTestServer(BASE, { now: Date.now() });
  open = await startTestServer({ ...BASE, WEBHOOK_ALLOW_PRIVATE: 'true' }, { now: Date.now() });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await strict?.close();
  await open?.close();
});

async function webhookSnapshot(server: TestServer) {
  const out: Record<string, unknown> = {};
  for (const t of ['webhook_endpoints', 'webhook_events', 'webhook_deliveries', 'webhook_attempts', 'organisation_activity', 'idempotency_keys'] as const) out[t] = await server.db.selectFrom(t).selectAll().execute();
  return out;
}

async function expectRefused(server: TestServer, key: Parameters<typeof refusal>[0], call: (lang: 'en' | 'cn') => Promise<Envelope>): Promise<void> {
  for (const lang of LANGS) {
    const before = await webhookSnapshot(server);
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang));
    expect(await webhookSnapshot(server), `state changed on ${key} (${lang})`).toEqual(before);
  }
}

async function drain(server: TestServer, rounds = 4): Promise<void> {
  const { config, log } = server.running.deps;
  const sender = createWebhookSender({ db: server.db, config, clock: server.clock, log });
  for (let i = 0; i < rounds; i++) {
    await sender.runOnce();
    server.clock.advance(100);
  }
}

describe('H where the server sends', () => {
  it('H1: loopback, private, link-local and unspecified literals in every spelling are refused when added (strict)', async () => {
    const u = await makeUser(strict);
    for (const url of [
      'https://127.0.0.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.1/',
      'https://127.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'https://[::127.0.0.1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[::]/',
      'https://0/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
    ]) {
      await expectRefused(strict, 'webhook_url_private', (lang) => write(strict, PATHS.webhooks, u.token, { url, events: ['ping'], mode: 'live' }, { lang }));
    }
    // Plain http is refused outright when private addresses are off.
    await expectRefused(strict, 'webhook_url_invalid', (lang) => write(strict, PATHS.webhooks, u.token, { url: 'http://example.com/', events: ['ping'], mode: 'live' }, { lang }));
  });

  it('H2: a name resolving to loopback is accepted as typed and refused at every send, with nothing reaching the receiver', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const u = await makeUser(strict);
    // localhost resolves to 127.0.0.1 (and ::1): the check is on the addresses, at send time.
    const made = await write(strict, PATHS.webhooks, u.token, { url: `https://localhost:${r.port}/hook`, events: ['ping'], mode: 'live' });
    expect(made.code, made.msg).toBe(0);
    const ping = await write(strict, PATHS.webhookPing, u.token, { id: made.data.id });
    expect(ping.code, ping.msg).toBe(0);
    await drain(strict);
    expect(r.received).toHaveLength(0);
    const tries = await strict.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', made.data.id).execute();
    expect(tries.length).toBeGreaterThan(0);
    expect(tries.every((t) => t.error === 'address_refused' && t.status_code === 0)).toBe(true);
  });

  it('H3: with WEBHOOK_ALLOW_PRIVATE loopback is let through, private and link-local ranges are not', async () => {
    const u = await makeUser(open);
    for (const url of ['http://10.0.0.1/', 'http://192.168.1.1/', 'http://[::ffff:10.0.0.1]/', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://0.0.0.0/']) {
      await expectRefused(open, 'webhook_url_private', (lang) => write(open, PATHS.webhooks, u.token, { url, events: ['ping'], mode: 'live' }, { lang }));
    }
  });

  it('H4: a receiver that redirects to another loopback address is not followed', async () => {
    const target = await startReceiver();
    receivers.push(target);
    const redirector = http.createServer((_req, res) => res.writeHead(307, { location: `${target.url}/stolen` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const u = await makeUser(open);
      const made = await write(open, PATHS.webhooks, u.token, { url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`, events: ['ping'], mode: 'live' });
      expect(made.code, made.msg).toBe(0);
      expect((await write(open, PATHS.webhookPing, u.token, { id: made.data.id })).code).toBe(0);
      await drain(open, 2);
      expect(target.received).toHaveLength(0);
      const tries = await open.db.selectFrom('webhook_attempts').select(['status_code']).where('endpoint_id', '=', made.data.id).execute();
      expect(tries.map((t) => t.status_code)).toContain(307);
      expect(await open.db.selectFrom('webhook_deliveries').select('status').where('endpoint_id', '=', made.data.id).execute()).not.toContainEqual({ status: 'delivered' });
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});

describe('H who may keep endpoints, and duplicates', () => {
  it('H5: a visitor, a buyer, an approver and a viewer of an organisation add, rotate, ping, resend and delete nothing (en and cn)', async () => {
    const org = await makeOrg(open, 'Hooks Attack Pte Ltd');
    const made = await write(open, PATHS.webhooks, org.owner.token, { url: 'http://127.0.0.1:9/o', events: ['ping'], mode: 'live' });
    expect(made.code, made.msg).toBe(0);
    const visitor = await open.api('POST', PATHS.visitor, {});
    expect(visitor.code, visitor.msg).toBe(0);
    await expectRefused(open, 'guest_forbidden', (lang) => write(open, PATHS.webhooks, visitor.data.token as string, { url: 'http://127.0.0.1:9/v', events: ['ping'], mode: 'live' }, { lang }));
    for (const role of ['buyer', 'approver', 'viewer']) {
      const m = await addMember(open, org, role);
      await expectRefused(open, 'org_role_forbidden', (lang) => write(open, PATHS.webhooks, m.orgToken, { url: 'http://127.0.0.1:9/m', events: ['ping'], mode: 'live' }, { lang }));
      for (const p of [PATHS.webhookRotate, PATHS.webhookPing, PATHS.webhookDelete]) await expectRefused(open, 'org_role_forbidden', (lang) => write(open, p, m.orgToken, { id: made.data.id }, { lang }));
      await expectRefused(open, 'org_role_forbidden', (lang) => write(open, PATHS.webhookResend, m.orgToken, { delivery_id: 1 }, { lang }));
      // Reads too: the log shows what the organisation's systems are told.
      const list = await open.api('GET', PATHS.webhooks, {}, { token: m.orgToken });
      expect(list.code).toBe(refusal('org_role_forbidden').code);
    }
    // Another account's endpoint is not found, not changed.
    const other = await makeUser(open);
    for (const p of [PATHS.webhookRotate, PATHS.webhookPing, PATHS.webhookDelete]) await expectRefused(open, 'webhook_not_found', (lang) => write(open, p, other.token, { id: made.data.id }, { lang }));
  });

  it('H6: 40 parallel adds with one Idempotency-Key make one endpoint; 40 with their own keys stop at the cap', async () => {
    const u = await makeUser(open);
    const key = newKey();
    const same = await Promise.all(Array.from({ length: 40 }, () => write(open, PATHS.webhooks, u.token, { url: 'http://127.0.0.1:9/same', events: ['ping'], mode: 'test' }, { key })));
    expect(same.every((r) => r.code === 0)).toBe(true);
    expect(new Set(same.map((r) => r.data.id)).size).toBe(1);
    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => write(open, PATHS.webhooks, u.token, { url: `http://127.0.0.1:9/many${i}`, events: ['ping'], mode: 'live' })));
    expect(many.filter((r) => r.code === 0)).toHaveLength(WEBHOOK_ENDPOINTS_MAX - 1);
    expect(many.filter((r) => r.code !== 0).every((r) => r.code === refusal('webhook_endpoints_full').code)).toBe(true);
    const rows = await open.db.selectFrom('webhook_endpoints').select('id').where('owner_id', '=', u.id).execute();
    expect(rows).toHaveLength(WEBHOOK_ENDPOINTS_MAX);
  });

  it('H7: 40 parallel pings of one endpoint with one key make one event; 40 rotations with their own keys leave one current secret', async () => {
    const u = await makeUser(open);
    const made = await write(open, PATHS.webhooks, u.token, { url: 'http://127.0.0.1:9/p', events: ['ping'], mode: 'live' });
    const key = newKey();
    const pings = await Promise.all(Array.from({ length: 40 }, () => write(open, PATHS.webhookPing, u.token, { id: made.data.id }, { key })));
    expect(new Set(pings.map((r) => r.data?.msg_id)).size).toBe(1);
    expect(await open.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', made.data.id).execute()).toHaveLength(1);
    const rotations = await Promise.all(Array.from({ length: 40 }, () => write(open, PATHS.webhookRotate, u.token, { id: made.data.id })));
    expect(rotations.every((r) => r.code === 0)).toBe(true);
    const row = await open.db.selectFrom('webhook_endpoints').select(['secret']).where('id', '=', made.data.id).executeTakeFirstOrThrow();
    // The last rotation committed is the current secret: one of the answers, exactly one.
    expect(rotations.filter((r) => r.data.secret === `whsec_${row.secret}`)).toHaveLength(1);
  });
});

describe('H malformed bodies', () => {
  it('H8: __proto__ and constructor keys, lone surrogates, NUL, wrong types, truncated and wrong-typed bodies are refused with nothing changed', async () => {
    const u = await makeUser(open);
    const raw = (body: string, type = 'application/json', lang: 'en' | 'cn' = 'en') =>
      open.raw('POST', PATHS.webhooks, { headers: { Authorization: u.token, 'Content-Type': type, 'Idempotency-Key': newKey() }, body, query: `lang=${lang}` });
    const envelope = async (res: Response) => (await res.json()) as Envelope;
    for (const [body, key] of [
      ['{"__proto__":{"admin":true},"url":"http://127.0.0.1:9/a","events":["ping"],"mode":"live"}', 'invalid_request'],
      ['{"constructor":{"prototype":{}},"url":"http://127.0.0.1:9/a","events":["ping"],"mode":"live"}', 'invalid_request'],
      ['{"url":"http://127.0.0.1:9/\\ud800","events":["ping"],"mode":"live"}', 'text_malformed'],
      ['{"url":"http://127.0.0.1:9/a","events":["ping\\u0000"],"mode":"live"}', 'text_malformed'],
      ['{"url":"http://127.0.0.1:9/a","events":"ping","mode":"live"}', 'webhook_events_invalid'],
      ['{"url":"http://127.0.0.1:9/a","events":["ping"],"mode":"live"', 'invalid_request'],
      ['[1,2]', 'invalid_request'],
    ] as const) {
      for (const lang of LANGS) {
        const before = await webhookSnapshot(open);
        const res = await raw(body, 'application/json', lang);
        expect(res.status).toBe(200);
        expect(await envelope(res), body).toMatchObject(refusal(key, lang));
        expect(await webhookSnapshot(open)).toEqual(before);
      }
    }
    // A body the server does not read as JSON is no endpoint.
    const before = await webhookSnapshot(open);
    const plain = await envelope(await raw('{"url":"http://127.0.0.1:9/a","events":["ping"],"mode":"live"}', 'text/plain'));
    expect(plain.code).toBeGreaterThan(0);
    // Past the body limit: 413, nothing read.
    const huge = await raw(JSON.stringify({ url: `http://127.0.0.1:9/${'a'.repeat(200_000)}`, events: ['ping'], mode: 'live' }));
    expect(huge.status).toBe(413);
    expect(await webhookSnapshot(open)).toEqual(before);
  });
});

describe('F7 a retried ping is answered, not throttled', () => {
  let tight: TestServer;
  beforeAll(async () => {
    tight = await startTestServer({ ...BASE, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MANUAL_SENDS_PER_HOUR: '2' }, { now: Date.now() });
  });
  afterAll(async () => {
    await tight?.close();
  });

  it('F7: a ping retried with its Idempotency-Key gets its first answer even once the hour\'s sends are used, and counts once', async () => {
    const u = await makeUser(tight);
    const made = await write(tight, PATHS.webhooks, u.token, { url: 'http://127.0.0.1:9/t', events: ['ping'], mode: 'live' });
    expect(made.code, made.msg).toBe(0);
    const key = newKey();
    const first = await write(tight, PATHS.webhookPing, u.token, { id: made.data.id }, { key });
    expect(first.code, first.msg).toBe(0);
    // Retries of the same ping use none of the budget: one more ping still goes.
    for (let i = 0; i < 3; i++) expect(await write(tight, PATHS.webhookPing, u.token, { id: made.data.id }, { key })).toEqual({ ...first, time: expect.any(Number) });
    const second = await write(tight, PATHS.webhookPing, u.token, { id: made.data.id });
    expect(second.code, second.msg).toBe(0);
    // The hour's two sends are used: a new ping is throttled, the first one's retry is still answered.
    const third = await write(tight, PATHS.webhookPing, u.token, { id: made.data.id });
    expect(third.code).toBe(refusal('too_many_requests').code);
    expect((await write(tight, PATHS.webhookPing, u.token, { id: made.data.id }, { key })).data).toEqual(first.data);
    expect(await tight.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', made.data.id).execute()).toHaveLength(2);
  });
});
