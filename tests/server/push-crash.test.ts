// A push survives a crash (docs/decisions/0033-web-push.md): the real server runs as a child process; a
// notice commits (its push queued in the same transaction) and the server is killed with SIGKILL before the
// push reached the push service: one notice while the push service is down (the server tried and backs
// off), one right after its commit (the sender has not run yet). Started again on the same data, the server
// sends each exactly once, and the device decrypts both.
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { notify } from '../../src/server/live/notices';
import type { PushPayload } from '../../src/server/live/push-sender';
import { freePort, insertMember, makeTmpDir, serverProcesses, waitUntil } from '../helpers/server';
import { databaseTarget } from '../helpers/database';
import { decrypt, newDevice, startPushService, type PushService } from '../helpers/push-service';

const dataDir = makeTmpDir('canopy-push-crash-');
const servers = serverProcesses(dataDir, { PUSH_HOSTS: '127.0.0.1', PUSH_RETRY_MS: '300' });
let service: PushService | null = null;
afterAll(async () => {
  await servers.close();
  await service?.close();
});

it('kill -9 after a notice commits and before its push is sent: sent once after the restart', async () => {
  const { db } = openDatabase(await databaseTarget(dataDir));
  await migrateToLatest(db);
  const now = Date.now();
  const user = { id: await insertMember(db, { email: 'push-crash@example.sg', first_name: 'Push', last_name: 'Crash', invite_code: 'PUSHC1' }, now) };
  // The device's push service is not up yet: its port is free.
  const pushPort = await freePort();
  const device = newDevice();
  const sub = device.subscription(`http://127.0.0.1:${pushPort}/push/crash`);
  await db.insertInto('push_subscriptions').values({ user_id: user.id, person_id: user.id, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, lang: 'en', created_at: now }).execute();
  const write = (title: string) => writeTx(db, (_tx, w) => notify(w, user.id, { title, title_cn: title, body: 'Body', body_cn: 'Body' }, Date.now()));

  const port = await freePort();
  let child = await servers.start(port);
  const first = await write('Sent while the push service was down');
  // The server tried (no answer) and put the push back for later.
  await waitUntil(async () => ((await db.selectFrom('push_queue').select('attempts').where('notification_id', '=', first).executeTakeFirst())?.attempts ?? 0) >= 1, 20_000);
  expect((await db.selectFrom('push_queue').select('attempts').where('notification_id', '=', first).executeTakeFirstOrThrow()).attempts).toBeGreaterThanOrEqual(1);
  const second = await write('Committed right before the kill');
  await servers.stop(child);
  expect(await db.selectFrom('push_queue').select('notification_id').orderBy('notification_id').execute()).toEqual([{ notification_id: first }, { notification_id: second }]);

  // A row the kill caught claimed and not yet answered waits out its lease (60 s) before any instance may
  // send it again. The lease is ended here as that minute would end it, so the test does not sit through it.
  await db.updateTable('push_queue').set({ claimed_until: Date.now() - 1 }).where('claimed_until', '>', Date.now()).execute();
  service = await startPushService(pushPort);
  child = await servers.start(port);
  await waitUntil(async () => service!.received.length >= 2 && (await db.selectFrom('push_queue').select('id').execute()).length === 0, 30_000);
  // Long enough for another run of the sender (every 2 s) to show a second send, if there were one.
  await new Promise((r) => setTimeout(r, 2500));
  const got = service.received.map((r) => JSON.parse(decrypt(device, r.body)) as PushPayload);
  expect(got.map((p) => p.id).sort((a, b) => a - b)).toEqual([first, second]);
  expect(got.find((p) => p.id === second)!.title).toBe('Committed right before the kill');
  expect(await db.selectFrom('push_queue').select('id').execute()).toEqual([]);
  await servers.stop(child);
  await db.destroy();
}, 180_000);
