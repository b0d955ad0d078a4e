// Web Push and the end of sessions (docs/product.md#notifications): a password change, a reset or a lock
// ends the member's sessions, and with them the devices that turned notifications on: a stolen session's
// phone receives none of her notices after she changes her password. The device she changed it on turns
// notifications on again (the app sends its subscription) and receives them. Real HTTP, both databases.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { sendDuePushes } from '../../src/server/live/push-sender';
import { login, startTestServer, type TestServer } from '../helpers/server';
import { newDevice, startPushService, type PushService } from '../helpers/push-service';
import { newKey, newUser, ok, ops, write, type WalletUser } from './wallet-helpers';

let s: TestServer;
let push: PushService;
beforeAll(async () => {
  push = await startPushService();
  s = await startTestServer({ SEED_DEMO: 'false', CODES_PER_IP_PER_HOUR: '100000', REGISTRATIONS_PER_IP_PER_HOUR: '100000', PUSH_HOSTS: '127.0.0.1' });
  await s.running.scheduler.stop();
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

async function noticeTo(u: WalletUser, title: string): Promise<void> {
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title, body: 'S$5,000 to DBS 012-345678-9' }));
  await ops(s, 'notice:send', [u.email, file]);
}

const pushesTo = (name: string) => push.received.filter((r) => r.path === `/push/${name}`).length;

it('a password change ends the devices of the sessions it ends; the device it was made on turns them on again', async () => {
  const u = await newUser(s, { ready: false, tag: 'revoked' });
  const other = await newUser(s, { ready: false, tag: 'bystander' });
  const thief = newDevice();
  const mine = newDevice();
  const theirs = newDevice();
  ok(await write(s, PATHS.pushSubscribe, thief.subscription(push.endpoint('thief')), u));
  const myToken = (await login(s, u.email, u.password)).data.token;
  ok(await write(s, PATHS.pushSubscribe, mine.subscription(push.endpoint('mine')), { ...u, token: myToken }));
  ok(await write(s, PATHS.pushSubscribe, theirs.subscription(push.endpoint('theirs')), other));
  // A push still queued for the thief's phone goes with it.
  await noticeTo(u, 'Queued before the change');
  const changed = await s.api('POST', PATHS.userLoginpwd, { old_password: u.password, password: 'Canopy2027b', repassword: 'Canopy2027b' }, { token: myToken, idempotencyKey: newKey() });
  expect(changed.code, changed.msg).toBe(0);
  expect(await s.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', u.id).execute()).toEqual([]);
  expect(await s.db.selectFrom('push_queue').select('id').execute()).toEqual([]);
  ok(await write(s, PATHS.pushSubscribe, mine.subscription(push.endpoint('mine')), { ...u, token: myToken }));
  await noticeTo(u, 'Withdrawal paid');
  await noticeTo(other, 'Another member');
  await sendDuePushes(s.running.deps);
  expect(pushesTo('thief')).toBe(0);
  expect(pushesTo('mine')).toBe(1);
  expect(pushesTo('theirs')).toBe(1);
});

it('a login lock (five wrong passwords inside a session) ends the devices too', async () => {
  const u = await newUser(s, { ready: false, tag: 'locked' });
  ok(await write(s, PATHS.pushSubscribe, newDevice().subscription(push.endpoint('locked')), u));
  for (let i = 0; i < 5; i++) await s.api('POST', PATHS.userLoginpwd, { old_password: `Wrong${i}pass1`, password: 'Canopy2027b', repassword: 'Canopy2027b' }, { token: u.token, idempotencyKey: newKey() });
  expect((await s.api('GET', PATHS.userInfo, {}, { token: u.token })).code).not.toBe(0);
  await noticeTo(u, 'After the lock');
  await sendDuePushes(s.running.deps);
  expect(pushesTo('locked')).toBe(0);
});
