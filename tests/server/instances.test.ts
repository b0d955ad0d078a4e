// Several API instances on one PostgreSQL database (docs/operations.md): what one instance commits reaches
// the sockets of another (LISTEN/NOTIFY), a session ended on one closes its sockets on the other, and
// money holds when both take orders at once. SQLite is one instance by design (one writer per file), so
// this suite runs on PostgreSQL only (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { API_BASE, PATHS } from '../../src/shared/api';
import { checkLedger } from '../../src/server/ledger/ledger';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { onPostgres } from '../helpers/database';
import { makeProject, makeUser, orderApi, TRADE_PASSWORD } from './market-helpers';
import { newKey } from './wallet-helpers';

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const dataDir = makeTmpDir('canopy-instances-');
    a = await startTestServer({ DATA_DIR: dataDir, HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
    b = await startTestServer({ DATA_DIR: dataDir, HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
  });
  afterAll(async () => {
    await b.running.close();
    await a.close();
  });

  function socketOn(s: TestServer, user: { id: number; token: string }) {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/h5/ws?mem_id=${user.id}&token=${encodeURIComponent(user.token)}&v=4`);
    const messages: Array<{ type: string; tables?: string[] }> = [];
    let closeCode = 0;
    ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as { type: string }));
    ws.on('close', (code) => (closeCode = code));
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { ws, messages, opened, closed: () => closeCode };
  }

  // A wait for a condition, not a speed figure: on a loaded machine a NOTIFY round trip between two
  // instances in one test process took over 3 s.
  async function until(check: () => boolean, ms = 10_000) {
    const end = Date.now() + ms;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return check();
  }

  it('an order placed on A reaches the buyer\'s socket on B', async () => {
    const u = await makeUser(a, { cents: 100_000 });
    const pid = await makeProject(a);
    const sock = socketOn(b, u);
    await sock.opened;
    expect(await until(() => sock.messages.some((m) => m.type === 'hello'))).toBe(true);
    expect((await orderApi(a).buy(u, pid, 1)).code).toBe(0);
    expect(await until(() => sock.messages.some((m) => m.type === 'invalidate' && m.tables?.includes('orders')))).toBe(true);
    sock.ws.close();
  });

  it('a logout on A closes the session\'s socket on B with 4001', async () => {
    const u = await makeUser(a, { cents: 0 });
    const sock = socketOn(b, u);
    await sock.opened;
    expect((await a.api('POST', PATHS.logout, {}, { token: u.token })).code).toBe(0);
    expect(await until(() => sock.closed() !== 0)).toBe(true);
    expect(sock.closed()).toBe(4001);
  });

  it('200 buys split over both instances for 60 tons: exactly 60 sold, the ledger balances', async () => {
    const pid = await makeProject(a, { total_tons: 1000, remaining_tons: 60, max_tons: 10, monthly_limit: 1000, total_limit: 1000 });
    const users = await Promise.all(Array.from({ length: 20 }, () => makeUser(a, { cents: 100_000 })));
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const s = i % 2 ? a : b;
        const res = await fetch(s.url + API_BASE + PATHS.orderBuy, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: users[i % users.length]!.token, 'Idempotency-Key': newKey() },
          body: JSON.stringify({ project_id: pid, tons: 1, password: TRADE_PASSWORD }),
        });
        return ((await res.json()) as { code: number }).code;
      }),
    );
    expect(answers.filter((c) => c === 0)).toHaveLength(60);
    const project = await a.db.selectFrom('projects').select('remaining_tons').where('id', '=', pid).executeTakeFirstOrThrow();
    expect(project.remaining_tons).toBe(0);
    const report = await checkLedger(a.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
  }, 60_000);
});
