// Retention: short-lived rows are pruned by age; money tables never are. On SQLite and PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pruneOldRows } from '../../src/server/scheduler/retention';
import { DAY, HOUR, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: 'false' });
});
afterAll(async () => {
  await s.close();
});

it('prunes old events, keys, sessions, codes and sent mail; keeps recent ones and every money row', async () => {
  const u = await makeUser(s, { cents: 100_000 });
  const pid = await makeProject(s);
  expect((await orderApi(s).buy(u, pid, 1)).code).toBe(0); // money rows, an idempotency key, live events
  const now = s.clock.now();
  const old = now - 2 * DAY;
  await s.db.insertInto('live_events').values({ user_id: u.id, payload: '{}', created_at: old }).execute();
  await s.db.insertInto('idempotency_keys').values({ user_id: u.id, key: 'old-key-123', endpoint: '/x', request_hash: 'h', state: 'done', response: 'null', created_at: old }).execute();
  await s.db.insertInto('sessions').values({ token_hash: 'expired-1', user_id: u.id, created_at: old, expires_at: old, last_seen_at: old, revoked_at: null }).execute();
  await s.db.insertInto('sessions').values({ token_hash: 'revoked-1', user_id: u.id, created_at: old, expires_at: now + DAY, last_seen_at: old, revoked_at: old }).execute();
  await s.db.insertInto('verification_codes').values({ email: 'x@example.sg', scene: 'register', code_hash: 'h', tries: 0, ip: '1', created_at: old, expires_at: old, used_at: null }).execute();
  await s.db.insertInto('outbox').values({ to_email: 'x@example.sg', subject: 's', body: 'b', created_at: now - 40 * DAY, sent_at: now - 40 * DAY, error: null }).execute();
  await s.db.insertInto('outbox').values({ to_email: 'y@example.sg', subject: 's', body: 'b', created_at: now - 40 * DAY, sent_at: null, error: 'smtp down' }).execute();

  const count = async (t: 'live_events' | 'idempotency_keys' | 'sessions' | 'verification_codes' | 'outbox' | 'fund_logs' | 'ledger_entries' | 'orders') =>
    Number((await s.db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const money = { fund_logs: await count('fund_logs'), ledger_entries: await count('ledger_entries'), orders: await count('orders') };
  const before = { live: await count('live_events'), keys: await count('idempotency_keys'), sessions: await count('sessions') };

  const report = await pruneOldRows(s.running.deps);
  expect(report).toMatchObject({ live_events: 1, idempotency_keys: 1, sessions: 2, verification_codes: 1, outbox: 1 });
  expect(await count('live_events')).toBe(before.live - 1);
  expect(await count('idempotency_keys')).toBe(before.keys - 1);
  expect(await count('sessions')).toBe(before.sessions - 2);
  expect((await s.db.selectFrom('outbox').select('to_email').execute()).map((r) => r.to_email)).toContain('y@example.sg'); // unsent mail stays
  expect({ fund_logs: await count('fund_logs'), ledger_entries: await count('ledger_entries'), orders: await count('orders') }).toEqual(money);
  // The buyer's live session and today's key survive; a day later the key goes too, the order stays.
  expect((await s.api('GET', '/api/user/info', {}, { token: u.token })).code).toBe(0);
  s.clock.advance(25 * HOUR);
  const later = await pruneOldRows(s.running.deps);
  expect(later.idempotency_keys).toBeGreaterThan(0);
  expect(await count('orders')).toBe(money.orders);
});

it('prunes avatar pictures no user has any more, a day after they were written; keeps the ones in use and new ones', async () => {
  const { avatarDir, avatarUrl } = await import('../../src/server/modules/avatar/service');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const dir = avatarDir(s.running.deps.config);
  fs.mkdirSync(dir, { recursive: true });
  const name = (c: string) => `${c.repeat(64)}.webp`;
  const [inUse, replaced, fresh] = [name('a'), name('b'), name('c')];
  for (const f of [inUse, replaced, fresh]) fs.writeFileSync(path.join(dir, f), 'RIFF....WEBP');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a picture of ours');
  const old = new Date(s.clock.now() - 2 * DAY);
  for (const f of [inUse, replaced, 'notes.txt']) fs.utimesSync(path.join(dir, f), old, old);
  fs.utimesSync(path.join(dir, fresh), new Date(s.clock.now()), new Date(s.clock.now()));
  const u = await makeUser(s);
  await s.db.updateTable('users').set({ avatar: avatarUrl(inUse) }).where('id', '=', u.id).execute();

  const report = await pruneOldRows(s.running.deps);
  expect(report.avatar_files).toBe(1);
  expect(fs.readdirSync(dir).sort()).toEqual([inUse, fresh, 'notes.txt'].sort());
  expect((await pruneOldRows(s.running.deps)).avatar_files).toBe(0);
});

it('prunes webhook deliveries settled long ago with their tries and their events; keeps pending ones and recent ones', async () => {
  const u = await makeUser(s);
  const now = s.clock.now();
  const old = now - 31 * DAY;
  const endpoint = await s.db
    .insertInto('webhook_endpoints')
    .values({ owner_id: u.id, mode: 'test', url: 'https://hooks.example.sg/in', events: '*', secret: 'whsec_x', previous_secret: null, previous_until: null, created_by: u.id, created_at: old, disabled_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const event = async (msg: string, at: number) =>
    (await s.db.insertInto('webhook_events').values({ msg_id: msg, owner_id: u.id, mode: 'test', type: 'ping', payload: '{}', created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  const delivery = async (eventId: number, status: 'pending' | 'delivered' | 'failed', settledAt: number | null) => {
    const d = await s.db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpoint.id, event_id: eventId, status, attempts: 1, next_at: old, claimed_until: 0, created_at: old, settled_at: settledAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db.insertInto('webhook_attempts').values({ delivery_id: d.id, endpoint_id: endpoint.id, attempt: 1, status_code: 500, latency_ms: 10, error: null, created_at: old }).execute();
    return d.id;
  };
  const oldDelivered = await delivery(await event('msg_old_delivered', old), 'delivered', old);
  const oldFailed = await delivery(await event('msg_old_failed', old), 'failed', old);
  const stillTrying = await delivery(await event('msg_old_pending', old), 'pending', null);
  const recent = await delivery(await event('msg_recent', now - DAY), 'delivered', now - DAY);
  await event('msg_old_nobody', old); // an event no endpoint took

  const report = await pruneOldRows(s.running.deps);
  expect(report).toMatchObject({ webhook_deliveries: 2, webhook_events: 3 });
  const deliveries = (await s.db.selectFrom('webhook_deliveries').select('id').execute()).map((r) => r.id);
  expect(deliveries).toEqual(expect.arrayContaining([stillTrying, recent]));
  expect(deliveries).not.toContain(oldDelivered);
  expect(deliveries).not.toContain(oldFailed);
  const tried = (await s.db.selectFrom('webhook_attempts').select('delivery_id').execute()).map((r) => r.delivery_id);
  expect(tried.sort()).toEqual([stillTrying, recent].sort());
  const events = (await s.db.selectFrom('webhook_events').select('msg_id').execute()).map((r) => r.msg_id);
  expect(events.sort()).toEqual(['msg_old_pending', 'msg_recent']);
  expect(await pruneOldRows(s.running.deps)).toMatchObject({ webhook_deliveries: 0, webhook_events: 0 });
});
