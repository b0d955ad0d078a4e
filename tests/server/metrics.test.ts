// Metrics (docs/decisions/0013-metrics.md): GET /metrics in Prometheus text, only with the bearer token; no
// token configured means no endpoint. The request counter of a route moves by exactly the requests sent,
// labelled by the route's template (raw paths never become labels). Each other series (sockets, write
// transactions, idempotency replays, throttles, orders, scheduler, ledger check) moves by exactly what real
// requests, sockets and scheduler runs did, read back through GET /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';
import { publish } from '../../src/server/live/events';
import { createScheduler } from '../../src/server/scheduler/scheduler';
import { writeTx } from '../../src/server/db/tx';
import { MIN, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, orderApi } from './market-helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
let s: TestServer;
beforeAll(async () => {
  // Three failed logins per address an hour: the fourth is refused by the limiter login_ip.
  s = await startTestServer({ METRICS_TOKEN: TOKEN, LOGINS_PER_IP_PER_HOUR: '3' });
  // The server's own scheduler would tick every 2 s on its own: stopped, so the scheduler's series move only
  // by the runs a test makes.
  await s.running.scheduler.stop();
});
afterAll(async () => {
  await s?.close();
});

const scrape = async () => {
  const res = await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
/** The sample of `name` whose labels are exactly `labels` (in any order); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    const want = Object.entries(labels);
    if (Object.keys(got).length === want.length && want.every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}
/** Scrapes before and after `fn`; returns a reader of how much a sample moved. */
async function delta(fn: () => Promise<void>): Promise<(name: string, labels?: Record<string, string>) => number> {
  const before = await scrape();
  await fn();
  const after = await scrape();
  return (name, labels = {}) => sample(after, name, labels) - sample(before, name, labels);
}
const code = (key: keyof typeof ERRORS) => String(ERRORS[key].code);

describe('metrics', () => {
  it('is refused without the token or with a wrong one', async () => {
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: TOKEN } })).status).toBe(401);
  });

  it('does not exist when no token is configured', async () => {
    const plain = await startTestServer();
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${plain.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("moves a route's request counter by exactly the requests sent, by template, with a latency histogram", async () => {
    const series = 'canopy_http_requests_total{method="GET",route="/h5/api/api/project/detail",status="200"}';
    const before = value(await scrape(), series);
    for (let i = 0; i < 7; i++) expect((await fetch(`${s.url}/h5/api/api/project/detail?id=1`)).status).toBe(200);
    const text = await scrape();
    expect(value(text, series)).toBe(before + 7);
    expect(value(text, 'canopy_http_request_duration_seconds_count{method="GET",route="/h5/api/api/project/detail"}')).toBeGreaterThanOrEqual(before + 7);
    expect(text).toMatch(/canopy_process_resident_memory_bytes \d+/);
  });

  it('never makes a label of a raw path', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${s.url}/h5/api/api/nothing-here-${i}`);
    await fetch(`${s.url}/pages/anything-${Date.now()}`);
    const text = await scrape();
    expect(text).not.toMatch(/nothing-here/);
    expect(text).not.toMatch(/anything-/);
    expect(text).toMatch(/route="\(none\)"/);
  });
});

function openSocket(socketHost: string, memId: number, token: string): Promise<{ ws: WebSocket; messages: string[]; wait(match: (m: string) => boolean): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${socketHost}?mem_id=${memId}&token=${encodeURIComponent(token)}&v=4`);
    const messages: string[] = [];
    ws.on('message', (d) => messages.push(d.toString()));
    // A wait for a condition, not a speed figure (a loaded machine can hold the test process for seconds).
    const wait = async (match: (m: string) => boolean) => {
      const end = Date.now() + 10_000;
      while (!messages.some(match) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      expect(messages.some(match), JSON.stringify(messages)).toBe(true);
    };
    ws.once('open', () => resolve({ ws, messages, wait }));
    ws.once('error', reject);
  });
}

/** Scrapes until `check` holds (a closing socket is counted once the server has seen the close). */
async function until(check: (text: string) => boolean): Promise<string> {
  let text: string;
  const end = Date.now() + 10_000;
  for (;;) {
    text = await scrape();
    if (check(text) || Date.now() > end) return text;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('metrics of the server at work', () => {
  it('counts open sockets and every frame sent on them (hello, pong, events)', async () => {
    const socketHost = (await s.api('GET', PATHS.baseconfig)).data.socket_host as string;
    const u = await makeUser(s);
    await s.running.hub.flush(); // whatever earlier tests published is delivered before the count starts
    const before = await scrape();
    const open0 = sample(before, 'canopy_sockets_open');
    const a = await openSocket(socketHost, u.id, u.token);
    const b = await openSocket(socketHost, u.id, u.token);
    await a.wait((m) => m.includes('"hello"'));
    await b.wait((m) => m.includes('"hello"'));
    a.ws.send('ping');
    await a.wait((m) => m === 'pong');
    await publish(s.db, { type: 'notification', id: 1, title: 'Hi', body: 'metrics', created_at: s.clock.now() }, u.id, s.clock.now());
    await a.wait((m) => m.includes('"metrics"'));
    await b.wait((m) => m.includes('"metrics"'));
    const during = await scrape();
    expect(sample(during, 'canopy_sockets_open')).toBe(open0 + 2);
    const moved = (kind: string) => sample(during, 'canopy_socket_messages_sent_total', { kind }) - sample(before, 'canopy_socket_messages_sent_total', { kind });
    expect([moved('hello'), moved('pong'), moved('event')]).toEqual([2, 1, 2]);
    a.ws.close();
    expect(sample(await until((t) => sample(t, 'canopy_sockets_open') === open0 + 1), 'canopy_sockets_open')).toBe(open0 + 1);
    b.ws.close();
    expect(sample(await until((t) => sample(t, 'canopy_sockets_open') === open0), 'canopy_sockets_open')).toBe(open0);
  });

  it('counts orders placed and refused by catalogue code, idempotency replays and write transactions', async () => {
    const api = orderApi(s);
    const u = await makeUser(s, { cents: 5_000 });
    const pid = await makeProject(s, { price: 1000 });
    const key = newKey();
    const moved = await delta(async () => {
      expect((await api.buy(u, pid, 2, { key })).code).toBe(0); // placed
      expect((await api.buy(u, pid, 2, { key })).code).toBe(0); // the same key again: a replay, not an order
      expect((await api.buy(u, pid, 40)).code).toBe(ERRORS.insufficient_balance.code);
      expect((await api.buy(u, pid, 1, { password: 'Wrong#Trade2026' })).code).toBe(ERRORS.project_password_incorrect.code);
    });
    expect(moved('canopy_orders_total', { kind: 'buy', code: '0' })).toBe(1);
    expect(moved('canopy_orders_total', { kind: 'buy', code: code('insufficient_balance') })).toBe(1);
    expect(moved('canopy_orders_total', { kind: 'buy', code: code('project_password_incorrect') })).toBe(1);
    expect(moved('canopy_idempotency_replays_total')).toBe(1);
    // Write transactions: the purchase's one only (the balance refusal comes before any transaction, the
    // wrong password is counted by one single-statement update, the replay only reads).
    expect(moved('canopy_db_write_tx_duration_seconds_count', { outcome: 'commit' })).toBe(1);
    expect(moved('canopy_db_write_tx_duration_seconds_count', { outcome: 'rollback' })).toBe(0);
    expect(moved('canopy_db_commit_group_duration_seconds_count')).toBe(1);
  });

  it('times a write transaction that rolls back under its own outcome', async () => {
    const before = await scrape();
    await expect(
      writeTx(s.db, async (tx) => {
        await tx.updateTable('users').set({ updated_at: 1 }).where('id', '=', -1).execute();
        throw new Error('refused inside');
      }),
    ).rejects.toThrow('refused inside');
    // The refused job is answered at once; its shared transaction ends (and is timed) just after.
    const group = (t: string) => sample(t, 'canopy_db_commit_group_duration_seconds_count') - sample(before, 'canopy_db_commit_group_duration_seconds_count');
    const after = await until((t) => group(t) >= 1);
    const moved = (outcome: string) => sample(after, 'canopy_db_write_tx_duration_seconds_count', { outcome }) - sample(before, 'canopy_db_write_tx_duration_seconds_count', { outcome });
    expect([moved('rollback'), moved('commit'), group(after)]).toEqual([1, 0, 1]);
  });

  it('counts throttle refusals by limiter name', async () => {
    const moved = await delta(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await s.raw('POST', PATHS.login, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: `nobody${i}@example.sg`, password: 'Wrong2026pass', agree: true }) });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });
    expect(moved('canopy_throttle_refusals_total', { limiter: 'login_ip' })).toBe(2);
    expect(moved('canopy_throttle_refusals_total', { limiter: 'login_account' })).toBe(0);
  });

  it('times each scheduler tick and reports its lag: now minus the earliest due time found', async () => {
    const api = orderApi(s);
    const u = await makeUser(s, { cents: 5_000 });
    const pid = await makeProject(s, { price: 1000, cycle_value: 30, cycle_unit: 'minutes' });
    expect((await api.buy(u, pid, 1)).code).toBe(0);
    s.clock.advance(30 * MIN + 90_000); // its cycle ended 90 s ago
    const scheduler = createScheduler(s.running.deps, 3_600_000);
    const moved = await delta(async () => {
      await scheduler.start(); // one tick now; the next would be in an hour
      await scheduler.stop();
    });
    const text = await scrape();
    expect(moved('canopy_scheduler_tick_duration_seconds_count')).toBe(1);
    expect(sample(text, 'canopy_scheduler_lag_seconds')).toBe(90);
    expect(sample(text, 'canopy_scheduler_last_tick_timestamp_seconds')).toBe(s.clock.now() / 1000);
    // Nothing due any more: the next tick's lag is 0.
    await scheduler.start();
    await scheduler.stop();
    expect(sample(await scrape(), 'canopy_scheduler_lag_seconds')).toBe(0);
  });

  it("reports the last ledger check's result and time", async () => {
    const u = await makeUser(s, { cents: 1_000 });
    await s.running.scheduler.checkLedger();
    let text = await scrape();
    expect(sample(text, 'canopy_ledger_check_ok')).toBe(1);
    expect(sample(text, 'canopy_ledger_check_problems')).toBe(0);
    expect(sample(text, 'canopy_ledger_check_timestamp_seconds')).toBe(s.clock.now() / 1000);
    // A balance that no longer equals its fund logs.
    const bump = (by: number) => s.db.updateTable('ledger_accounts').set((eb) => ({ balance: eb('balance', '+', by) })).where('owner_id', '=', u.id).where('name', '=', 'available').execute();
    await bump(1);
    s.clock.advance(60_000);
    try {
      await s.running.scheduler.checkLedger();
      text = await scrape();
      expect(sample(text, 'canopy_ledger_check_ok')).toBe(0);
      expect(sample(text, 'canopy_ledger_check_problems')).toBe(1);
      expect(sample(text, 'canopy_ledger_check_timestamp_seconds')).toBe(s.clock.now() / 1000);
    } finally {
      await bump(-1);
    }
    await s.running.scheduler.checkLedger();
    expect(sample(await scrape(), 'canopy_ledger_check_ok')).toBe(1);
  });
});
