// A webhook survives a crash (docs/decisions/0044-webhooks.md): the real server runs as a child process; an
// order completes (completeCycle, whose transaction writes the order.completed event and its delivery) and
// the server is killed with SIGKILL before the receiver got it: one order while the receiver answers 500
// (the server tried and backs off), one right after its commit (the sender has not run yet). Started again
// on the same data, the server delivers each, and every try of an event carries its one webhook-id.
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { openPlatformAccounts, openUserAccounts } from '../../src/server/ledger/ledger';
import { completeCycle } from '../../src/server/modules/order/transitions';
import { insertOrder } from '../../src/server/modules/order/writes';
import { freePort, insertMember, makeTmpDir, serverProcesses, waitUntil, type TestServer } from '../helpers/server';
import { databaseTarget } from '../helpers/database';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { makeProject } from './market-helpers';

const dataDir = makeTmpDir('canopy-webhook-crash-');
const servers = serverProcesses(dataDir, {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '300,300,300,300,300,300,300,300',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_MS: '100',
});
let receiver: Receiver | null = null;
afterAll(async () => {
  await servers.close();
  await receiver?.close();
});

it('kill -9 after an order completes and before its webhook is delivered: delivered after the restart, one webhook-id per event', async () => {
  const { db } = openDatabase(await databaseTarget(dataDir));
  await migrateToLatest(db);
  const now = Date.now();
  const user = { id: await insertMember(db, { email: 'webhook-crash@example.sg', first_name: 'Hook', last_name: 'Crash', invite_code: 'WHCR01' }, now) };
  await openPlatformAccounts(db);
  await writeTx(db, (tx) => openUserAccounts(tx, user.id));
  const projectId = await makeProject({ db, clock: { now: () => Date.now() } } as unknown as TestServer);
  const receiverPort = await freePort();
  await db
    .insertInto('webhook_endpoints')
    .values({ owner_id: user.id, mode: 'live', url: `http://127.0.0.1:${receiverPort}/hook`, events: '["order.completed"]', secret: Buffer.alloc(32, 1).toString('base64'), previous_secret: null, previous_until: null, created_by: user.id, created_at: now, disabled_at: null })
    .execute();
  // An order whose cycle has just ended, completed by the test at once (or, rarely, by the server's own
  // scheduler first: either way the completion and its event commit together).
  const complete = async () => {
    const t = Date.now();
    const order = await writeTx(db, (_tx, w) =>
      insertOrder(w, { user_id: user.id, project_id: projectId, side: 'buy', kind: 'purchase', status: 'in_progress', unit_price: 1000, tons: 2, total: 2000, booking_fee: 0, cycle_end: t - 1, created_at: t, updated_at: t }),
    );
    await completeCycle(db, order.id, Date.now(), [1e12, 2e12, 3e12, 4e12, 5e12]);
    expect((await db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe('completed');
    return order.id;
  };
  const eventOf = async (orderId: number) => (await db.selectFrom('webhook_events').select(['id', 'msg_id', 'payload']).execute()).find((e) => (JSON.parse(e.payload) as { data: { id: number } }).data.id === orderId)!;

  // The receiver answers 500 until told otherwise.
  receiver = await startReceiver(receiverPort);
  let healthy = false;
  receiver.answer = () => ({ status: healthy ? 200 : 500 });

  const port = await freePort();
  let child = await servers.start(port);
  const first = await complete();
  const firstEvent = await eventOf(first);
  await waitUntil(() => receiver!.received.length >= 2, 20_000);
  expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  const second = await complete();
  await servers.stop(child);
  const secondEvent = await eventOf(second);
  expect(await db.selectFrom('webhook_deliveries').select('status').orderBy('id').execute()).toEqual([{ status: 'pending' }, { status: 'pending' }]);

  healthy = true;
  child = await servers.start(port);
  // At once, unless the kill caught a try claimed and not yet answered: then after its lease.
  await waitUntil(async () => (await db.selectFrom('webhook_deliveries').select('status').where('status', '=', 'delivered').execute()).length === 2, 60_000);
  // Long enough for more runs of the sender to show a second delivery, if there were one.
  await new Promise((r) => setTimeout(r, 1500));
  const byId = new Map<string, number[]>();
  for (const r of receiver.received) {
    const id = r.headers['webhook-id']!;
    const { data } = JSON.parse(r.body) as { type: string; data: { id: number } };
    byId.set(id, [...(byId.get(id) ?? []), data.id]);
  }
  // Each event under one webhook-id, whatever the number of tries; each delivered (200) exactly once.
  expect([...byId.keys()].sort()).toEqual([firstEvent.msg_id, secondEvent.msg_id].sort());
  expect(new Set(byId.get(firstEvent.msg_id))).toEqual(new Set([first]));
  expect(new Set(byId.get(secondEvent.msg_id))).toEqual(new Set([second]));
  const tries = await db.selectFrom('webhook_attempts').select(['delivery_id', 'status_code']).execute();
  expect(tries.filter((t) => t.status_code === 200)).toHaveLength(2);
  expect(await db.selectFrom('webhook_deliveries').select('status').execute()).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
  await servers.stop(child);
  await db.destroy();
}, 180_000);
