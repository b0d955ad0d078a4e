// Web Push on a device acting for an organisation: the device receives the organisation's notices while
// its person is a member, and none once the member is removed or changes her password. Real HTTP, both
// databases.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { sendDuePushes } from '../../src/server/live/push-sender';
import { login, startTestServer, type TestServer } from '../helpers/server';
import { newDevice, startPushService, type PushService } from '../helpers/push-service';
import { ops } from './wallet-helpers';
import { addMember, GENEROUS, makeOrg, write } from './org-helpers';
import { newKey } from './market-helpers';
import { hashPasswordScrypt } from '../../src/server/lib/crypto';
import { down, up } from '../../src/server/db/migrations/030-push-person';

let s: TestServer;
let push: PushService;
beforeAll(async () => {
  push = await startPushService();
  s = await startTestServer({ ...GENEROUS, SEED_DEMO: 'false', PUSH_HOSTS: '127.0.0.1' });
  await s.running.scheduler.stop();
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

async function noticeTo(email: string, title: string): Promise<void> {
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify({ title, body: 'Body' }));
  await ops(s, 'notice:send', [email, file]);
}

it("a removed member's device receives none of the organisation's notices", async () => {
  const org = await makeOrg(s);
  const member = await addMember(s, org, 'buyer');
  const phone = newDevice();
  const on = await write(s, PATHS.pushSubscribe, member.orgToken, phone.subscription(push.endpoint('member-phone')));
  expect(on.code, on.msg).toBe(0);
  await noticeTo(org.email, 'While a member');
  await sendDuePushes(s.running.deps);
  expect(push.received.filter((r) => r.path === '/push/member-phone')).toHaveLength(1);
  const removed = await write(s, PATHS.orgRemove, org.owner.token, { user_id: member.id });
  expect(removed.code, removed.msg).toBe(0);
  await noticeTo(org.email, 'After the removal');
  await sendDuePushes(s.running.deps);
  expect(push.received.filter((r) => r.path === '/push/member-phone')).toHaveLength(1);
});

it("her own password change ends the devices she turned on for the organisation, and none of the other members'", async () => {
  const org = await makeOrg(s);
  const member = await addMember(s, org, 'buyer');
  const colleague = await addMember(s, org, 'viewer');
  const password = 'Canopy2027a';
  await s.db.updateTable('users').set({ password_hash: await hashPasswordScrypt(password, 12) }).where('id', '=', member.id).execute();
  expect((await write(s, PATHS.pushSubscribe, member.orgToken, newDevice().subscription(push.endpoint('her-org-phone')))).code).toBe(0);
  expect((await write(s, PATHS.pushSubscribe, colleague.orgToken, newDevice().subscription(push.endpoint('colleague-phone')))).code).toBe(0);
  await noticeTo(org.email, 'Queued before the change');
  // Her own login, beside the session acting for the organisation (switching into it ended the first).
  const own = (await login(s, member.email, password)).data.token as string;
  const changed = await write(s, PATHS.userLoginpwd, own, { old_password: password, password: 'Canopy2027b', repassword: 'Canopy2027b' });
  expect(changed.code, changed.msg).toBe(0);
  await noticeTo(org.email, 'After the change');
  await sendDuePushes(s.running.deps);
  expect(push.received.filter((r) => r.path === '/push/her-org-phone')).toHaveLength(0);
  expect(push.received.filter((r) => r.path === '/push/colleague-phone')).toHaveLength(2);
});

it("removing a member leaves the other members' devices and her own account's device", async () => {
  const org = await makeOrg(s);
  const member = await addMember(s, org, 'buyer');
  const colleague = await addMember(s, org, 'viewer');
  const password = 'Canopy2027a';
  await s.db.updateTable('users').set({ password_hash: await hashPasswordScrypt(password, 12) }).where('id', '=', member.id).execute();
  const own = (await login(s, member.email, password)).data.token as string;
  expect((await write(s, PATHS.pushSubscribe, own, newDevice().subscription(push.endpoint('her-own-phone')))).code).toBe(0);
  expect((await write(s, PATHS.pushSubscribe, member.orgToken, newDevice().subscription(push.endpoint('her-work-phone')))).code).toBe(0);
  expect((await write(s, PATHS.pushSubscribe, colleague.orgToken, newDevice().subscription(push.endpoint('colleague-2')))).code).toBe(0);
  await noticeTo(org.email, 'Queued before the removal');
  expect((await write(s, PATHS.orgRemove, org.owner.token, { user_id: member.id })).code).toBe(0);
  expect(await s.db.selectFrom('push_queue').innerJoin('push_subscriptions as p', 'p.id', 'push_queue.subscription_id').select('p.endpoint').execute()).toEqual([{ endpoint: push.endpoint('colleague-2') }]);
  await noticeTo(member.email, 'Her own notice');
  await sendDuePushes(s.running.deps);
  expect(push.received.filter((r) => r.path === '/push/her-work-phone')).toHaveLength(0);
  expect(push.received.filter((r) => r.path === '/push/her-own-phone')).toHaveLength(1);
  expect(push.received.filter((r) => r.path === '/push/colleague-2')).toHaveLength(1);
});

it('migration 030 files each existing device under its account as the person who turned it on', async () => {
  const org = await makeOrg(s);
  const phone = newDevice();
  expect((await write(s, PATHS.pushSubscribe, org.owner.token, phone.subscription(push.endpoint('owner-phone')))).code).toBe(0);
  await down(s.db as never);
  await up(s.db as never);
  const rows = await s.db.selectFrom('push_subscriptions').select(['user_id', 'person_id']).execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.person_id).toBe(r.user_id);
});
