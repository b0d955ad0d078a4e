// Web Push (docs/product.md#notifications, docs/decisions/0033-web-push.md) over real HTTP and a real
// push service on 127.0.0.1: a notice written by the server reaches each device that turned notifications
// on, encrypted for that device (decrypted here with its keys, RFC 8291) and signed with the server's VAPID
// key, in the device's language, with the screen to open and the unread count; 404/410 removes the
// device, a 5xx is tried again after the backoff; the final-payment reminders are sent once each; an
// endpoint outside PUSH_HOSTS is refused with the catalogue error, nothing stored.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { PushDevices, PushKey } from '../../src/shared/schemas/push';
import { sendDuePushes, type PushPayload } from '../../src/server/live/push-sender';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { loadVapidKeys } from '../../src/server/lib/vapid';
import { loadConfig } from '../../src/server/config';
import { writeTx } from '../../src/server/db/tx';
import { notify } from '../../src/server/live/notices';
import { HOUR, MIN, startTestServer, type TestServer } from '../helpers/server';
import { decrypt, newDevice, startPushService, vapidValid, type Device, type PushService } from '../helpers/push-service';
import { expectRefused, fund, newKey, newUser, ok, ops, write, type WalletUser } from './wallet-helpers';
import { makeProject } from './market-helpers';

let s: TestServer;
let push: PushService;
let u: WalletUser;
let other: WalletUser;
let publicKey: string;
beforeAll(async () => {
  push = await startPushService();
  s = await startTestServer({ SEED_DEMO: 'false', CODES_PER_IP_PER_HOUR: '100000', REGISTRATIONS_PER_IP_PER_HOUR: '100000', SESSION_TTL_DAYS: '365', PUSH_HOSTS: '127.0.0.1', PUSH_RETRY_MS: '1000' });
  // The tests run the sender themselves, at the moments they choose.
  await s.running.scheduler.stop();
  u = await newUser(s, { ready: false, tag: 'push' });
  other = await newUser(s, { ready: false, tag: 'push-other' });
  publicKey = ok(await s.api<PushKey>('GET', PATHS.pushKey, {}, { token: u.token })).public_key;
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

const send = () => sendDuePushes(s.running.deps);
const subscribe = async (who: WalletUser, device: Device, name: string, lang: 'en' | 'cn' = 'en') => write(s, PATHS.pushSubscribe, device.subscription(push.endpoint(name)), who, { lang });
const devices = async (who: WalletUser) => (await s.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', who.id).orderBy('id').execute()).map((r) => r.endpoint.split('/').at(-1));

async function notice(who: WalletUser, text: { title: string; body: string; title_cn?: string; body_cn?: string }): Promise<number> {
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify(text));
  const res = await ops(s, 'notice:send', [who.email, file]);
  return (res.data as { id: number }).id;
}

/** The pushes the service received at one device's endpoint, decrypted. */
function opened(name: string, device: Device): { payload: PushPayload; headers: Record<string, unknown> }[] {
  return push.received.filter((r) => r.path === `/push/${name}`).map((r) => ({ payload: JSON.parse(decrypt(device, r.body)) as PushPayload, headers: r.headers }));
}

describe('the VAPID key pair', () => {
  it('is one pair for every instance of the database, or the one the environment sets', async () => {
    const subject = 'mailto:ops@canopy.sg';
    // Another instance starting on the same database reads the pair the first one made.
    const again = await loadVapidKeys(s.db, { VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined, VAPID_SUBJECT: subject }, s.clock.now());
    expect(again.publicKey).toBe(publicKey);
    const set = { VAPID_PUBLIC_KEY: 'B'.repeat(87), VAPID_PRIVATE_KEY: 'A'.repeat(43), VAPID_SUBJECT: subject };
    expect(await loadVapidKeys(s.db, set, s.clock.now())).toEqual({ publicKey: set.VAPID_PUBLIC_KEY, privateKey: set.VAPID_PRIVATE_KEY, subject });
  });

  it('is set whole or not at all, and PUSH_HOSTS names hosts', () => {
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'B'.repeat(87) })).toThrow(/set both/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: 'short' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ PUSH_HOSTS: 'https://fcm.googleapis.com/' })).toThrow(/PUSH_HOSTS/);
    expect(loadConfig({}).PUSH_HOSTS).toContain('fcm.googleapis.com');
  });
});

describe('web push', () => {
  const en = newDevice();
  const zh = newDevice();

  it('sends a notice to every device of its user, encrypted for each, signed, in its language', async () => {
    expect(ok(await subscribe(u, en, 'u-en', 'en'))).toEqual({ devices: 1 });
    expect(ok<PushDevices>(await subscribe(u, zh, 'u-zh', 'cn'))).toEqual({ devices: 2 });
    const id = await notice(u, { title: 'Scheduled maintenance', title_cn: '计划维护', body: 'Back at 02:00.', body_cn: '02:00 恢复。' });
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toHaveLength(2);
    expect(await send()).toEqual({ sent: 2, retried: 0, removed: 0, dropped: 0 });
    const [first] = opened('u-en', en);
    expect(first!.payload).toEqual({ id, title: 'Scheduled maintenance', body: 'Back at 02:00.', url: '/pages/profile/notifications', unread: 1 });
    expect(first!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400', topic: `n${id}`, urgency: 'high' });
    expect(vapidValid(first!.headers.authorization as string, publicKey, push.origin)).toBe(true);
    expect(opened('u-zh', zh)[0]!.payload).toMatchObject({ id, title: '计划维护', body: '02:00 恢复。' });
    // Sent once: the queue is empty, a second run sends nothing.
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
    expect(await send()).toEqual({ sent: 0, retried: 0, removed: 0, dropped: 0 });
    expect(push.received).toHaveLength(2);
  });

  it("another device's keys cannot read it: the body decrypts only with the device's own keys", () => {
    const body = push.received.find((r) => r.path === '/push/u-en')!.body;
    expect(() => decrypt(zh, body)).toThrow();
  });

  it('tries a 5xx again after the backoff, doubling, and sends it once it is taken', async () => {
    push.answer.set('/push/u-en', 503);
    const id = await notice(u, { title: 'Retry me', body: 'Body' });
    expect(await send()).toMatchObject({ sent: 1, retried: 1 });
    expect(await send()).toMatchObject({ sent: 0, retried: 0 }); // not yet due
    s.clock.advance(1000);
    expect(await send()).toMatchObject({ retried: 1 });
    s.clock.advance(1000);
    expect(await send()).toMatchObject({ sent: 0, retried: 0 }); // the second wait is 2 s
    push.answer.delete('/push/u-en');
    s.clock.advance(1000);
    expect(await send()).toMatchObject({ sent: 1, retried: 0 });
    const tries = opened('u-en', en).filter((p) => p.payload.id === id);
    expect(tries).toHaveLength(3);
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
  });

  it('removes a device its push service answers 410 (or 404) for, and only that one', async () => {
    const gone = newDevice();
    ok(await subscribe(u, gone, 'u-gone'));
    push.answer.set('/push/u-gone', 410);
    await notice(u, { title: 'Anyone there?', body: 'Body' });
    expect(await send()).toMatchObject({ sent: 2, removed: 1 });
    expect(await devices(u)).toEqual(['u-en', 'u-zh']);
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
  });

  it('turning notifications off on one device leaves the others', async () => {
    expect(ok(await write(s, PATHS.pushUnsubscribe, { endpoint: push.endpoint('u-zh') }, u))).toEqual({ devices: 1 });
    expect(await devices(u)).toEqual(['u-en']);
    // Another user cannot turn off this user's device.
    expect(ok(await write(s, PATHS.pushUnsubscribe, { endpoint: push.endpoint('u-en') }, other))).toEqual({ devices: 0 });
    expect(await devices(u)).toEqual(['u-en']);
    ok(await subscribe(u, zh, 'u-zh', 'cn'));
  });

  it('refuses an endpoint that is not a listed push service, in both languages, storing nothing', async () => {
    const before = await s.db.selectFrom('push_subscriptions').selectAll().orderBy('id').execute();
    for (const endpoint of ['https://evil.example/push/1', 'http://127.0.0.1.evil.example/push', 'https://user:pw@127.0.0.1/x', 'file:///etc/passwd', 'http://10.0.0.1/push']) {
      await expectRefused(s, 'push_endpoint_refused', (lang) => write(s, PATHS.pushSubscribe, en.subscription(endpoint), u, { lang }));
    }
    expect(await s.db.selectFrom('push_subscriptions').selectAll().orderBy('id').execute()).toEqual(before);
    const bad = await write(s, PATHS.pushSubscribe, { ...en.subscription(push.endpoint('x')), extra: 1 }, u);
    expect(bad.code).toBe(1003);
    const shortKey = await write(s, PATHS.pushSubscribe, { endpoint: push.endpoint('x'), keys: { p256dh: 'AAAA', auth: 'AAAA' } }, u);
    expect(shortKey.code).toBe(1003);
  });

  it('a notice whose transaction rolls back is neither kept nor pushed', async () => {
    const notices = async () => (await s.db.selectFrom('notifications').select('id').where('user_id', '=', u.id).execute()).length;
    const before = await notices();
    await expect(
      writeTx(s.db, async (_tx, w) => {
        await notify(w, u.id, { title: 'Never', title_cn: '从未', body: 'Rolled back', body_cn: '已回滚' }, s.clock.now());
        throw new Error('the event fails after its notice');
      }),
    ).rejects.toThrow(/the event fails/);
    expect(await notices()).toBe(before);
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
  });

  it('refuses a body with __proto__ or an unknown field', async () => {
    const body = JSON.parse(`{"__proto__": {"admin": true}, "endpoint": "${push.endpoint('proto')}", "keys": ${JSON.stringify(en.subscription('x').keys)}}`) as Record<string, unknown>;
    expect((await write(s, PATHS.pushSubscribe, body, u)).code).toBe(1003);
    expect(await devices(u)).not.toContain('proto');
  });

  it('one row per device, however many times it is turned on at once; a shared device moves with none of the pending pushes', async () => {
    const phone = newDevice();
    const answers = await Promise.all(Array.from({ length: 40 }, () => subscribe(u, phone, 'shared')));
    expect(answers.every((a) => a.code === 0)).toBe(true);
    expect((await devices(u)).filter((d) => d === 'shared')).toHaveLength(1);
    await notice(u, { title: 'Private to u', body: 'Body' });
    // The other account signs in on the same phone and turns notifications on.
    ok(await subscribe(other, phone, 'shared'));
    expect(await devices(u)).not.toContain('shared');
    expect(await devices(other)).toEqual(['shared']);
    const before = push.received.length;
    await send();
    const toPhone = push.received.slice(before).filter((r) => r.path === '/push/shared');
    expect(toPhone).toEqual([]);
  });

  it('two senders at once send each push once', async () => {
    for (let i = 0; i < 5; i++) await notice(u, { title: `Burst ${i}`, body: 'Body' });
    const before = push.received.length;
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.sent + b.sent).toBe(10);
    expect(push.received.length - before).toBe(10);
  });

  it('pushes money notices (opening the fund logs) and an operator notice to everyone to every device', async () => {
    await send();
    const before = push.received.length;
    await fund(s, u, 5000);
    expect(await send()).toMatchObject({ sent: 2 });
    const credited = push.received.slice(before).find((r) => r.path === '/push/u-en')!;
    expect(JSON.parse(decrypt(en, credited.body))).toMatchObject({ title: 'Top-up credited', url: '/pages/profile/fundlogs' });
    const file = path.join(s.dataDir, `notice-${newKey()}.json`);
    fs.writeFileSync(file, JSON.stringify({ title: 'To everyone', body: 'Body', title_cn: '致所有人', body_cn: '正文' }));
    await ops(s, 'notice:send', [], { all: file });
    const devicesNow = await s.db.selectFrom('push_subscriptions').select('id').execute();
    expect(await s.db.selectFrom('push_queue').select('id').execute()).toHaveLength(devicesNow.length);
    expect((await send()).sent).toBe(devicesNow.length);
    expect(push.received.slice(-devicesNow.length).map((r) => r.path).sort()).toEqual(['/push/shared', '/push/u-en', '/push/u-zh']);
  });

  it('reminds of a final payment 24 h and 2 h before its deadline, once each whatever runs, opening the pending orders', async () => {
    const projectId = await makeProject(s);
    const now = s.clock.now();
    const deadline = now + 30 * HOUR;
    const row = await s.db
      .insertInto('orders')
      .values({ order_no: `PS-${now}`, user_id: u.id, project_id: projectId, side: 'buy', kind: 'presale', status: 'pending_final_payment', unit_price: 1000, tons: 5, total: 500, booking_fee: 500, final_unit_price: 1200, final_tons: 5, final_amount: 5500, final_deadline: deadline, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deps = s.running.deps;
    expect((await runDueWork(deps)).reminded).toBe(0);
    s.clock.advance(7 * HOUR);
    const both = await Promise.all([runDueWork(deps), runDueWork(deps)]);
    expect(both[0].reminded + both[1].reminded).toBe(1);
    expect((await runDueWork(deps)).reminded).toBe(0);
    s.clock.advance(21 * HOUR + MIN);
    expect((await runDueWork(deps)).reminded).toBe(1);
    expect((await runDueWork(deps)).reminded).toBe(0);
    const notices = await s.db.selectFrom('notifications').select(['title', 'title_cn', 'body', 'url']).where('user_id', '=', u.id).orderBy('id', 'desc').limit(2).execute();
    expect(notices.map((n) => n.title)).toEqual(['Final payment due in 2 hours', 'Final payment due in 24 hours']);
    expect(notices[0]!.body).toContain(`PS-${now}`);
    expect(notices[0]!.body).toContain('S$55.00');
    expect(notices.every((n) => n.url === '/pages/profile/order?tab=pending')).toBe(true);
    const before = push.received.length;
    await send();
    const zhPush = push.received.slice(before).filter((r) => r.path === '/push/u-zh').map((r) => JSON.parse(decrypt(zh, r.body)) as PushPayload);
    // Sent together, so in any order.
    expect(zhPush.map((p) => p.title).sort()).toEqual(['尾款将于 24 小时后截止', '尾款将于 2 小时后截止'].sort());
    expect(zhPush.every((p) => p.url === '/pages/profile/order?tab=pending')).toBe(true);
    expect(row.id).toBeGreaterThan(0);
  });
});
