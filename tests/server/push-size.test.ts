// A push fits in one record of the push service (RFC 8291: at most 4096 bytes on the wire, which FCM, Mozilla
// and Apple refuse beyond with 413): a notice longer than that, such as an operator notice of 2000 Chinese
// characters, is pushed with its body shortened, and the inbox keeps it whole. Real HTTP, both databases.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { sendDuePushes, type PushPayload } from '../../src/server/live/push-sender';
import { startTestServer, type TestServer } from '../helpers/server';
import { decrypt, newDevice, startPushService, type PushService } from '../helpers/push-service';
import { newKey, newUser, ok, ops, write, type WalletUser } from './wallet-helpers';

let s: TestServer;
let push: PushService;
let u: WalletUser;
beforeAll(async () => {
  push = await startPushService();
  s = await startTestServer({ SEED_DEMO: 'false', CODES_PER_IP_PER_HOUR: '100000', REGISTRATIONS_PER_IP_PER_HOUR: '100000', PUSH_HOSTS: '127.0.0.1' });
  await s.running.scheduler.stop();
  u = await newUser(s, { ready: false, tag: 'push-size' });
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

it('pushes a notice of 2000 Chinese characters within 4096 bytes, its body shortened, the inbox whole', async () => {
  const zh = newDevice();
  const en = newDevice();
  ok(await write(s, PATHS.pushSubscribe, zh.subscription(push.endpoint('zh')), u, { lang: 'cn' }));
  ok(await write(s, PATHS.pushSubscribe, en.subscription(push.endpoint('en')), u, { lang: 'en' }));
  const body = `${'维护'.repeat(999)}完毕`;
  const bodyEn = `${'Maintenance '.repeat(166)}ok`;
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title: 'Maintenance', title_cn: '计划维护', body: bodyEn, body_cn: body }));
  await ops(s, 'notice:send', [u.email, file]);
  expect(await sendDuePushes(s.running.deps)).toEqual({ sent: 2, retried: 0, removed: 0, dropped: 0 });
  const got = (name: string) => push.received.find((r) => r.path === `/push/${name}`)!;
  expect(got('zh').body.length).toBeLessThanOrEqual(4096);
  const p = JSON.parse(decrypt(zh, got('zh').body)) as PushPayload;
  expect(p.title).toBe('计划维护');
  expect(p.body.endsWith('…')).toBe(true);
  expect(body.startsWith(p.body.slice(0, -1))).toBe(true);
  expect(p.body.length).toBeGreaterThan(100);
  const e = JSON.parse(decrypt(en, got('en').body)) as PushPayload;
  expect(e.body).toBe(bodyEn);
  const kept = await s.db.selectFrom('notifications').select('body_cn').where('user_id', '=', u.id).executeTakeFirstOrThrow();
  expect(kept.body_cn).toBe(body);
});

it('never cuts a character in two: a body of emoji shortens on a whole one', async () => {
  const zh = newDevice();
  ok(await write(s, PATHS.pushSubscribe, zh.subscription(push.endpoint('emoji')), u, { lang: 'cn' }));
  const body = '🌳'.repeat(1000);
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title: 'Trees', title_cn: '树', body: 'Trees', body_cn: body }));
  await ops(s, 'notice:send', [u.email, file]);
  await sendDuePushes(s.running.deps);
  const r = push.received.find((x) => x.path === '/push/emoji')!;
  expect(r.body.length).toBeLessThanOrEqual(4096);
  const p = JSON.parse(decrypt(zh, r.body)) as PushPayload;
  expect(p.body).toMatch(/^(🌳)+…$/u);
});

it('refuses device keys that are no P-256 point; a stored one is removed and the other pushes go', async () => {
  const good = newDevice();
  ok(await write(s, PATHS.pushSubscribe, good.subscription(push.endpoint('good')), u));
  // 65 bytes that look like an uncompressed point (0x04, x, y) but are not on the curve.
  const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
  const bad = { endpoint: push.endpoint('bad'), keys: { p256dh: notOnCurve, auth: good.subscription('x').keys.auth } };
  for (const lang of ['en', 'cn'] as const) expect((await write(s, PATHS.pushSubscribe, bad, u, { lang })).code).toBe(1003);
  expect(await s.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', bad.endpoint).execute()).toEqual([]);
  // A device stored before the check: its push cannot be encrypted, so the device is removed, the rest sent.
  await s.db.insertInto('push_subscriptions').values({ user_id: u.id, person_id: u.id, endpoint: bad.endpoint, p256dh: notOnCurve, auth: bad.keys.auth, lang: 'en', created_at: s.clock.now() }).execute();
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title: 'Hello', body: 'Body' }));
  await ops(s, 'notice:send', [u.email, file]);
  const devices = await s.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', u.id).execute();
  const report = await sendDuePushes(s.running.deps);
  expect(report).toEqual({ sent: devices.length - 1, retried: 0, removed: 1, dropped: 0 });
  expect(await s.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', bad.endpoint).execute()).toEqual([]);
  expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
});
