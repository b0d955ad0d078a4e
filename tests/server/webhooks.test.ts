// Webhooks over real HTTP and a real database (docs/product.md#webhooks): endpoints kept by a person or an
// organisation's owner and admins; Canopy's signatures verified by the `standardwebhooks` library; a receiver
// answering 500 four times gets the event on the fifth try with one webhook-id; the endpoint disabled with
// a notice after the last try; receivers on loopback, link-local and a name resolving to loopback refused
// when WEBHOOK_ALLOW_PRIVATE is off; two senders deliver each event once; a slow receiver holds nobody else.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { writeTx } from '../../src/server/db/tx';
import { addressAllowed } from '../../src/server/modules/webhook/address';
import { recordCancellation } from '../../src/server/modules/retire/cancellation';
import { confirmTopup } from '../../src/server/modules/wallet/service';
import { emitWebhookEvent } from '../../src/server/modules/webhook/outbox';
import { createWebhookSender } from '../../src/server/modules/webhook/sender';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { WEBHOOK_ENDPOINTS_MAX } from '../../src/shared/schemas/webhook';
import { refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { makeUser, newKey, topup } from './market-helpers';
import { giveCredits, makeRetirableProject, retireApi } from './retire-helpers';
import { addMember, GENEROUS, LANGS, makeOrg, ORG_PASSWORD, TRADE_PASSWORD, write } from './org-helpers';

const BASE = { ...GENEROUS, WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50', WEBHOOK_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '2000' };

let s: TestServer;
let strict: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  // The clock starts at the real time: receivers check webhook-timestamp against theirs.
  s = await startTestServer({ ...BASE, WEBHOOK_ALLOW_PRIVATE: 'true' }, { now: Date.now() });
  strict = await startTestServer(BASE, { now: Date.now() });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await s?.close();
  await strict?.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

function senderOf(server: TestServer, db = server.db, poll?: number) {
  const { config, log } = server.running.deps;
  return createWebhookSender({ db, config: poll ? { ...config, WEBHOOK_POLL_MS: poll } : config, clock: server.clock, log });
}

/** Runs the sender until nothing is due, moving the clock past each retry's wait. */
async function drain(server: TestServer, rounds = 20): Promise<void> {
  const sender = senderOf(server);
  for (let i = 0; i < rounds; i++) {
    await sender.runOnce();
    server.clock.advance(100);
  }
}

async function webhookSnapshot(server: TestServer) {
  const out: Record<string, unknown> = {};
  for (const t of ['webhook_endpoints', 'webhook_events', 'webhook_deliveries', 'webhook_attempts', 'organisation_activity'] as const) out[t] = await server.db.selectFrom(t).selectAll().execute();
  return out;
}

async function expectRefused(server: TestServer, key: Parameters<typeof refusal>[0], call: (lang: Lang) => Promise<Envelope>, params?: Record<string, number>): Promise<void> {
  for (const lang of LANGS) {
    const before = await webhookSnapshot(server);
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, params));
    expect(await webhookSnapshot(server), `state changed on ${key} (${lang})`).toEqual(before);
  }
}

async function person(server: TestServer) {
  const org = await makeOrg(server, 'Webhook Shop Pte Ltd');
  return org.owner;
}

async function addEndpoint(server: TestServer, token: string, url: string, events: string[] = ['order.completed', 'ping'], mode = 'live') {
  const res = await write(server, PATHS.webhooks, token, { url, events, mode });
  expect(res.code, res.msg).toBe(0);
  return res.data as { id: number; secret: string; url: string; events: string[]; mode: string };
}

describe('endpoints', () => {
  it('adds an endpoint with its secret shown once; lists without it; rotates; deletes', async () => {
    const owner = await person(s);
    const r = await receiver();
    const made = await addEndpoint(s, owner.token, `${r.url}/hook`);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await s.api('GET', PATHS.webhooks, {}, { token: owner.token });
    expect(list.code).toBe(0);
    expect(list.data.list).toEqual([{ id: made.id, url: `${r.url}/hook`, events: ['order.completed', 'ping'], mode: 'live', created_at: expect.any(Number), disabled_at: null }]);
    expect(JSON.stringify(list.data)).not.toContain(made.secret.slice(6));
    const rotated = await write(s, PATHS.webhookRotate, owner.token, { id: made.id });
    expect(rotated.code, rotated.msg).toBe(0);
    expect(rotated.data.secret).not.toBe(made.secret);
    // During the overlap both secrets sign: a receiver still on the old one verifies.
    const ping = await write(s, PATHS.webhookPing, owner.token, { id: made.id });
    expect(ping.code, ping.msg).toBe(0);
    await drain(s, 2);
    const got = r.received.at(-1)!;
    expect(got.headers['webhook-id']).toBe(ping.data.msg_id);
    expect(got.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [made.secret, rotated.data.secret as string]) expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'ping', data: { endpoint_id: made.id } });
    const del = await write(s, PATHS.webhookDelete, owner.token, { id: made.id });
    expect(del.code, del.msg).toBe(0);
    expect((await s.api('GET', PATHS.webhooks, {}, { token: owner.token })).data.list).toEqual([]);
  });

  it('an organisation: owner and admins keep endpoints, a buyer or viewer may not; another account sees none of them', async () => {
    const org = await makeOrg(s, 'Roles Pte Ltd');
    const admin = await addMember(s, org, 'admin');
    const buyer = await addMember(s, org, 'buyer');
    const viewer = await addMember(s, org, 'viewer');
    const made = await addEndpoint(s, admin.orgToken, 'http://127.0.0.1:9/admin');
    expect((await s.db.selectFrom('webhook_endpoints').select(['owner_id', 'created_by']).where('id', '=', made.id).executeTakeFirstOrThrow())).toEqual({ owner_id: org.id, created_by: admin.id });
    for (const m of [buyer, viewer]) {
      await expectRefused(s, 'org_role_forbidden', (lang) => write(s, PATHS.webhooks, m.orgToken, { url: 'http://127.0.0.1:9/x', events: ['ping'], mode: 'live' }, { lang }));
      await expectRefused(s, 'org_role_forbidden', (lang) => s.api('GET', PATHS.webhooks, { lang }, { token: m.orgToken }));
    }
    const other = await person(s);
    await expectRefused(s, 'webhook_not_found', (lang) => write(s, PATHS.webhookPing, other.token, { id: made.id }, { lang }));
    await expectRefused(s, 'webhook_not_found', (lang) => s.api('GET', PATHS.webhookDeliveries, { id: made.id, lang }, { token: other.token }));
    // The activity log keeps the write without the secret.
    const act = await s.db.selectFrom('organisation_activity').select('detail').where('account_id', '=', org.id).where('action', '=', 'developer.webhooks').execute();
    expect(act).toHaveLength(1);
    expect(act[0]!.detail).not.toContain('whsec_');
  });

  it('refusals of the catalogue, in en and cn, change nothing', async () => {
    const owner = await person(s);
    await expectRefused(s, 'webhook_events_invalid', (lang) => write(s, PATHS.webhooks, owner.token, { url: 'https://example.com/h', events: [], mode: 'live' }, { lang }));
    await expectRefused(s, 'webhook_events_invalid', (lang) => write(s, PATHS.webhooks, owner.token, { url: 'https://example.com/h', events: ['order.shipped'], mode: 'live' }, { lang }));
    await expectRefused(s, 'webhook_url_invalid', (lang) => write(s, PATHS.webhooks, owner.token, { url: 'ftp://example.com/h', events: ['ping'], mode: 'live' }, { lang }));
    await expectRefused(s, 'webhook_url_invalid', (lang) => write(s, PATHS.webhooks, owner.token, { url: 'https://user:pw@example.com/h', events: ['ping'], mode: 'live' }, { lang }));
    await expectRefused(s, 'webhook_not_found', (lang) => write(s, PATHS.webhookRotate, owner.token, { id: 999_999 }, { lang }));
    await expectRefused(s, 'webhook_not_found', (lang) => write(s, PATHS.webhookDelete, owner.token, { id: 999_999 }, { lang }));
    await expectRefused(s, 'webhook_delivery_not_found', (lang) => write(s, PATHS.webhookResend, owner.token, { delivery_id: 999_999 }, { lang }));
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) await addEndpoint(s, owner.token, `https://example.com/h${i}`);
    await expectRefused(s, 'webhook_endpoints_full', (lang) => write(s, PATHS.webhooks, owner.token, { url: 'https://example.com/more', events: ['ping'], mode: 'test' }, { lang }), { n: WEBHOOK_ENDPOINTS_MAX });
  });
});

describe('events written with their effects', () => {
  it('an order completed by the scheduler, a retirement and a credited top-up each write their event; a refused retirement writes none', async () => {
    const u = await makeUser(s, { cents: 500_000 });
    await addEndpoint(s, u.token, 'http://127.0.0.1:9/effects', ['order.completed', 'retirement.created', 'topup.credited']);
    const events = async () => (await s.db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', u.id).orderBy('id').execute()).map((e) => ({ type: e.type, data: (JSON.parse(e.payload) as { data: Record<string, unknown> }).data }));
    const pid = await makeRetirableProject(s);
    await giveCredits(s, u, pid, 5);
    expect(await events()).toEqual([{ type: 'order.completed', data: expect.objectContaining({ project_id: pid, tons: 5, status: 'completed' }) }]);
    const retired = await retireApi(s).retire(u, { project_id: pid, tons: 2 });
    expect(retired.code, retired.msg).toBe(0);
    const refused = await retireApi(s).retire(u, { project_id: pid, tons: 999 });
    expect(refused.code).not.toBe(0);
    const asked = await write(s, PATHS.walletTopup, u.token, { amount: 10_000, method: 'bank' });
    expect(asked.code, asked.msg).toBe(0);
    await writeTx(s.db, (_tx, w) => confirmTopup(w, asked.data.id as number, s.clock.now()));
    expect(await events()).toEqual([
      { type: 'order.completed', data: expect.objectContaining({ project_id: pid, tons: 5 }) },
      { type: 'retirement.created', data: expect.objectContaining({ id: retired.data.id, tons: 2, certificate_url: retired.data.certificate_url }) },
      { type: 'topup.credited', data: expect.objectContaining({ id: asked.data.id, amount: 10_000, status: 'credited' }) },
    ]);
    expect(await s.db.selectFrom('webhook_deliveries as d').innerJoin('webhook_events as v', 'v.id', 'd.event_id').select('d.status').where('v.owner_id', '=', u.id).execute()).toHaveLength(3);
  });

  it('a retirement cancelled on the registry (the operator records its reference) writes its event once', async () => {
    const u = await makeUser(s, { cents: 500_000 });
    await addEndpoint(s, u.token, 'http://127.0.0.1:9/cancelled', ['retirement.cancelled']);
    const pid = await makeRetirableProject(s);
    await giveCredits(s, u, pid, 3);
    const retired = await retireApi(s).retire(u, { project_id: pid, tons: 3 });
    expect(retired.code, retired.msg).toBe(0);
    const id = retired.data.id as string;
    const now = s.clock.now();
    expect((await recordCancellation(s.db, id, 'VCS-RET-4471', '2026-03-02', now)).state).toBe('recorded');
    expect((await recordCancellation(s.db, id, 'VCS-RET-4471', '2026-03-02', now)).state).toBe('unchanged');
    const events = await s.db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', u.id).orderBy('id').execute();
    expect(events.map((e) => ({ type: e.type, data: (JSON.parse(e.payload) as { data: unknown }).data }))).toEqual([
      { type: 'retirement.cancelled', data: expect.objectContaining({ id, project_id: pid, tons: 3, registry_reference: 'VCS-RET-4471', registry_cancelled_on: '2026-03-02' }) },
    ]);
  });

  it("an organisation's approval requested and decided each write their event to the organisation's endpoint", async () => {
    const org = await makeOrg(s, 'Approvals Hooks Pte Ltd');
    await topup(s, org.id, 5_000_000);
    const pid = await makeRetirableProject(s, { price: 1000 });
    const buyer = await addMember(s, org, 'buyer');
    const approver = await addMember(s, org, 'approver');
    const bought = await write(s, PATHS.orderBuy, org.owner.token, { project_id: pid, tons: 300, password: ORG_PASSWORD });
    expect(bought.code, bought.msg).toBe(0);
    s.clock.advance(60_000);
    await runDueWork(s.running.deps);
    await addEndpoint(s, org.owner.token, 'http://127.0.0.1:9/approvals', ['approval.requested', 'approval.decided']);
    const asked = await write(s, PATHS.creditRetire, buyer.orgToken, { project_id: pid, tons: 150, beneficiary: 'Acme Pte Ltd', reason: '', paypwd: TRADE_PASSWORD });
    expect(asked.code, asked.msg).toBe(0);
    const id = asked.data.approval.id as number;
    expect((await write(s, PATHS.approvalDecline, approver.orgToken, { id })).code).toBe(0);
    const events = await s.db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', org.id).orderBy('id').execute();
    expect(events.map((e) => ({ type: e.type, data: (JSON.parse(e.payload) as { data: unknown }).data }))).toEqual([
      { type: 'approval.requested', data: expect.objectContaining({ id, kind: 'retire', tons: 150, maker_id: buyer.id, status: 'waiting' }) },
      { type: 'approval.decided', data: expect.objectContaining({ id, kind: 'retire', status: 'declined', decided_by: approver.id }) },
    ]);
  });
});

describe('signatures', () => {
  it('the standardwebhooks library verifies them; a tampered body or an old timestamp fails', async () => {
    // The server's clock back at the real time (tests before moved it on).
    s.clock.set(Date.now());
    const owner = await person(s);
    const r = await receiver();
    const made = await addEndpoint(s, owner.token, `${r.url}/sig`);
    await write(s, PATHS.webhookPing, owner.token, { id: made.id });
    await drain(s, 2);
    const got = r.received.at(-1)!;
    const wh = new Webhook(made.secret);
    expect(wh.verify(got.body, got.headers)).toMatchObject({ type: 'ping' });
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(() => wh.verify(got.body.replace('ping', 'pong'), got.headers)).toThrow(/signature/i);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, got.headers)).toThrow(/signature/i);

    // Signed ten minutes ago (the server's clock), verified now: outside the library's five-minute tolerance.
    s.clock.advance(-10 * 60_000);
    await write(s, PATHS.webhookPing, owner.token, { id: made.id });
    await drain(s, 2);
    s.clock.advance(10 * 60_000);
    const late = r.received.at(-1)!;
    expect(late.headers['webhook-id']).not.toBe(got.headers['webhook-id']);
    expect(() => wh.verify(late.body, late.headers)).toThrow(/timestamp/i);
  });
});

describe('delivery', () => {
  it('a receiver answering 500 four times gets the event on the fifth try, with one webhook-id; the log and a resend', async () => {
    const owner = await person(s);
    const r = await receiver();
    r.answer = (_req, n) => ({ status: n <= 4 ? 500 : 200 });
    const made = await addEndpoint(s, owner.token, `${r.url}/retry`);
    const msgId = await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'live', type: 'order.completed', data: { id: 1 } }, s.clock.now()));
    await drain(s);
    expect(r.received).toHaveLength(5);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([msgId]));
    const log = await s.api('GET', PATHS.webhookDeliveries, { id: made.id }, { token: owner.token });
    expect(log.code).toBe(0);
    expect(log.data.list.map((a: { attempt: number; status_code: number; status: string }) => [a.attempt, a.status_code, a.status])).toEqual([
      [5, 200, 'delivered'],
      [4, 500, 'delivered'],
      [3, 500, 'delivered'],
      [2, 500, 'delivered'],
      [1, 500, 'delivered'],
    ]);
    const resent = await write(s, PATHS.webhookResend, owner.token, { delivery_id: log.data.list[0].delivery_id });
    expect(resent.code, resent.msg).toBe(0);
    await drain(s, 2);
    expect(r.received).toHaveLength(6);
    expect(r.received[5]!.headers['webhook-id']).toBe(msgId);
    // A live endpoint hears nothing of the test mode.
    await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'test', type: 'order.completed', data: { id: 2 } }, s.clock.now()));
    await drain(s, 2);
    expect(r.received).toHaveLength(6);
  });

  it('after the last try fails the endpoint is disabled and its owner told; a ping turns it on again', async () => {
    const owner = await person(s);
    const r = await receiver();
    r.answer = () => ({ status: 503 });
    // A receiver URL often carries its own credential (a path token, a signed query): the notice, which every
    // member of the organisation reads (viewers too), names the endpoint by its origin only.
    const made = await addEndpoint(s, owner.token, `${r.url}/down/T0KEN-abc?sig=s3cret`);
    await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'live', type: 'order.completed', data: { id: 3 } }, s.clock.now()));
    await drain(s);
    expect(r.received).toHaveLength(5);
    const ep = await s.db.selectFrom('webhook_endpoints').select('disabled_at').where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(ep.disabled_at).not.toBeNull();
    const notice = await s.db.selectFrom('notifications').select(['title', 'title_cn', 'url']).where('user_id', '=', owner.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(notice).toEqual({ title: 'Webhook endpoint disabled', title_cn: 'Webhook 端点已停用', url: '/pages/developer/webhooks' });
    const texts = await s.db.selectFrom('notifications').select(['body', 'body_cn']).where('user_id', '=', owner.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    for (const t of [texts.body, texts.body_cn]) {
      expect(t).toContain(`${r.url} (#${made.id})`);
      expect(t).not.toMatch(/T0KEN|s3cret|\/down/);
    }
    // Disabled: new events are not written for it.
    expect(await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'live', type: 'order.completed', data: { id: 4 } }, s.clock.now()))).toBeNull();
    r.answer = () => ({ status: 204 });
    expect((await write(s, PATHS.webhookPing, owner.token, { id: made.id })).code).toBe(0);
    await drain(s, 2);
    expect(r.received).toHaveLength(6);
    expect((await s.db.selectFrom('webhook_endpoints').select('disabled_at').where('id', '=', made.id).executeTakeFirstOrThrow()).disabled_at).toBeNull();
  });

  it('two senders (two database connections) deliver each event once', async () => {
    const owner = await person(s);
    const r = await receiver();
    r.answer = () => ({ status: 200, delayMs: 5 });
    for (let i = 0; i < 3; i++) await addEndpoint(s, owner.token, `${r.url}/two/${i}`);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'live', type: 'order.completed', data: { id: 100 + i } }, s.clock.now())))!);
    const second = openDatabase(s.running.deps.config.DB_TARGET);
    try {
      const a = senderOf(s);
      const b = senderOf(s, second.db);
      for (let i = 0; i < 20; i++) await Promise.all([a.runOnce(), b.runOnce()]);
    } finally {
      await second.db.destroy();
    }
    const seen = r.received.map((x) => `${x.path} ${x.headers['webhook-id']}`);
    expect(seen).toHaveLength(36);
    expect(new Set(seen).size).toBe(36);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set(ids));
  });

  it("a slow receiver does not delay another endpoint's delivery", async () => {
    const slowOwner = await person(s);
    const fastOwner = await person(s);
    const slow = await receiver();
    const fast = await receiver();
    slow.answer = () => ({ status: 200, delayMs: 1500 });
    await addEndpoint(s, slowOwner.token, `${slow.url}/slow`);
    await addEndpoint(s, fastOwner.token, `${fast.url}/fast`);
    for (let i = 0; i < 8; i++) await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: slowOwner.id, mode: 'live', type: 'order.completed', data: { id: 200 + i } }, s.clock.now()));
    const sender = senderOf(s, s.db, 20);
    sender.start();
    try {
      const end = Date.now() + 5000;
      while (slow.received.length === 0 && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
      expect(slow.received.length).toBeGreaterThan(0);
      const sent = Date.now();
      await writeTx(s.db, (tx) => emitWebhookEvent(tx, { owner: fastOwner.id, mode: 'live', type: 'order.completed', data: { id: 300 } }, s.clock.now()));
      while (fast.received.length === 0 && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
      expect(fast.received).toHaveLength(1);
      // Before the slow receiver answered even its first try.
      expect(fast.received[0]!.at).toBeLessThan(slow.received[0]!.at + 1500);
      expect(fast.received[0]!.at).toBeGreaterThanOrEqual(sent);
      // The slow endpoint had at most its share in flight at once.
      expect(slow.received.length).toBeLessThanOrEqual(4);
    } finally {
      await sender.stop();
    }
  });
});

describe('receivers the server never sends to (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('address literals of loopback and link-local are refused when added', async () => {
    const owner = await person(strict);
    for (const url of ['https://127.0.0.1/h', 'https://[::1]/h', 'https://169.254.169.254/latest/meta-data', 'https://10.1.2.3/h', 'https://[::ffff:127.0.0.1]/h']) {
      await expectRefused(strict, 'webhook_url_private', (lang) => write(strict, PATHS.webhooks, owner.token, { url, events: ['ping'], mode: 'live' }, { lang }));
    }
    await expectRefused(strict, 'webhook_url_invalid', (lang) => write(strict, PATHS.webhooks, owner.token, { url: 'http://example.com/h', events: ['ping'], mode: 'live' }, { lang }));
  });

  it('at send time: loopback, ::1, 169.254.169.254 and a name that resolves to loopback get nothing', async () => {
    const owner = await person(strict);
    const r = await receiver();
    // A name is taken when added and checked at every send (its addresses may change: DNS rebinding).
    const byName = await addEndpoint(strict, owner.token, `https://localhost:${r.port}/name`);
    // Literals as if added before a change of rules (the check at send time holds on its own).
    const now = strict.clock.now();
    for (const url of [`https://127.0.0.1:${r.port}/v4`, `https://[::1]:${r.port}/v6`, 'https://169.254.169.254/latest/meta-data', `http://127.0.0.1:${r.port}/plain`]) {
      await strict.db.insertInto('webhook_endpoints').values({ owner_id: owner.id, mode: 'live', url, events: '["ping","order.completed"]', secret: 'c2VjcmV0', previous_secret: null, previous_until: null, created_by: owner.id, created_at: now, disabled_at: null }).execute();
    }
    await writeTx(strict.db, (tx) => emitWebhookEvent(tx, { owner: owner.id, mode: 'live', type: 'order.completed', data: { id: 1 } }, strict.clock.now()));
    await senderOf(strict).runOnce();
    const tries = await strict.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_endpoints as e', 'e.id', 'a.endpoint_id')
      .select(['e.url', 'a.status_code', 'a.error'])
      .where('e.owner_id', '=', owner.id)
      .orderBy('e.id')
      .execute();
    expect(tries).toEqual([
      { url: `https://localhost:${r.port}/name`, status_code: 0, error: 'address_refused' },
      { url: `https://127.0.0.1:${r.port}/v4`, status_code: 0, error: 'address_refused' },
      { url: `https://[::1]:${r.port}/v6`, status_code: 0, error: 'address_refused' },
      { url: 'https://169.254.169.254/latest/meta-data', status_code: 0, error: 'address_refused' },
      { url: `http://127.0.0.1:${r.port}/plain`, status_code: 0, error: 'https_required' },
    ]);
    expect(r.received).toEqual([]);
    expect(byName.id).toBeGreaterThan(0);
  });

  it('the address check: private, loopback, link-local and mapped forms refused; public ones allowed; loopback only when allowed', () => {
    const refused = ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::ffff:0:127.0.0.1', '::ffff:0:a00:1'];
    for (const a of refused) expect(addressAllowed({ address: a, family: a.includes(':') ? 6 : 4 }, false), a).toBe(false);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(addressAllowed({ address: a, family: a.includes(':') ? 6 : 4 }, false), a).toBe(true);
    expect(addressAllowed({ address: '127.0.0.1', family: 4 }, true)).toBe(true);
    expect(addressAllowed({ address: '::1', family: 6 }, true)).toBe(true);
    expect(addressAllowed({ address: '169.254.169.254', family: 4 }, true)).toBe(false);
    expect(addressAllowed({ address: '10.0.0.1', family: 4 }, true)).toBe(false);
  });
});

it('Idempotency-Key: the same add twice is one endpoint with one secret', async () => {
  const owner = await person(s);
  const key = newKey();
  const a = await write(s, PATHS.webhooks, owner.token, { url: 'https://example.com/once', events: ['ping'], mode: 'test' }, { key });
  const b = await write(s, PATHS.webhooks, owner.token, { url: 'https://example.com/once', events: ['ping'], mode: 'test' }, { key });
  expect(b.data).toEqual(a.data);
  expect((await s.api('GET', PATHS.webhooks, {}, { token: owner.token })).data.list).toHaveLength(1);
});

describe('manual sends', () => {
  it('throttles ping and resend per account (WEBHOOK_MANUAL_SENDS_PER_HOUR): a refusal sends and stores nothing', async () => {
    const t = await startTestServer({ ...BASE, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MANUAL_SENDS_PER_HOUR: '2' }, { now: Date.now() });
    try {
      const r = await receiver();
      const owner = await person(t);
      const made = await addEndpoint(t, owner.token, `${r.url}/hook`);
      const first = await write(t, PATHS.webhookPing, owner.token, { id: made.id });
      expect(first.code, first.msg).toBe(0);
      await drain(t, 2);
      const delivery = await t.db.selectFrom('webhook_deliveries').select('id').orderBy('id').executeTakeFirstOrThrow();
      const again = await write(t, PATHS.webhookResend, owner.token, { delivery_id: delivery.id });
      expect(again.code, again.msg).toBe(0);
      await expectRefused(t, 'too_many_requests', (lang) => write(t, PATHS.webhookPing, owner.token, { id: made.id }, { lang }));
      await expectRefused(t, 'too_many_requests', (lang) => write(t, PATHS.webhookResend, owner.token, { delivery_id: delivery.id }, { lang }));
    } finally {
      await t.close();
    }
  });
});
