// The database away for a moment (docs/operations.md#outages): requests are answered 503 with
// service_unavailable and Retry-After, never 500 server_error; /readyz says the database is unreachable;
// once it is back, requests succeed again and a write retried across the cut was done once or not at all.
// PostgreSQL only (npm run test:pg): the server reaches it through a TCP proxy in this test (loopback
// only) that the test cuts and restores.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { errorMessage, ERRORS } from '../../src/shared/errors';
import { checkLedger } from '../../src/server/ledger/ledger';
import { isConnectionError } from '../../src/server/db/errors';
import { openDatabase } from '../../src/server/db/connection';
import { loadConfig } from '../../src/server/config';
import { createLimits } from '../../src/server/lib/limits';
import { createLogger } from '../../src/server/lib/log';
import { databaseEnv, onPostgres, TEST_DATABASE_URL } from '../helpers/database';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, TRADE_PASSWORD, walletOfUser } from './market-helpers';

/** A loopback TCP proxy to the test database that can be cut (connections dropped, new ones refused). */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let hanging = false;
  const server = net.createServer((client) => {
    if (hanging) {
      // Accepted, never answered: what a host whose database process is stuck looks like.
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => listen(port),
    /** Drops every connection and takes new ones without ever answering them. */
    hang: () => {
      hanging = true;
      for (const s of sockets) s.destroy();
    },
    unhang: () => {
      hanging = false;
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const CONNECT_TIMEOUT_MS = 500;

/** A TCP server that accepts connections and never answers them. */
async function startSilentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `postgres://postgres@127.0.0.1:${(server.address() as net.AddressInfo).port}/canopy`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a database that accepts connections and never answers', () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(() => silent.close());

  /** How `work` ends, and after how long; 'pending' when it had not ended after `limitMs`. */
  async function outcome(work: Promise<unknown>, limitMs: number) {
    const t0 = Date.now();
    const r = await Promise.race([
      work.then(
        () => ({ end: 'resolved' as const, err: undefined }),
        (err: unknown) => ({ end: 'rejected' as const, err }),
      ),
      new Promise<{ end: 'pending'; err: undefined }>((resolve) => setTimeout(() => resolve({ end: 'pending', err: undefined }), limitMs)),
    ]);
    return { ...r, ms: Date.now() - t0 };
  }

  it('a query gives up after the connect timeout with an error that reads as the database away', async () => {
    const { db } = openDatabase(silent.url, { poolSize: 1, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    try {
      const r = await outcome(db.selectFrom('users').select('id').execute(), CONNECT_TIMEOUT_MS * 6);
      expect(r.end).toBe('rejected');
      expect(r.ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      expect(isConnectionError(r.err), String(r.err)).toBe(true);
    } finally {
      await db.destroy();
    }
  });

  it("the rate limits' own pool gives up after the same timeout", async () => {
    const config = loadConfig({ DATA_DIR: makeTmpDir('canopy-silent-'), DATABASE_URL: silent.url, DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS) });
    const r = await outcome(createLimits(config, createLogger('silent')), CONNECT_TIMEOUT_MS * 6);
    expect(r.end).toBe('rejected');
    expect(isConnectionError(r.err), String(r.err)).toBe(true);
  });
});

describe.skipIf(!onPostgres)('the database cut for two seconds', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let s: TestServer;
  beforeAll(async () => {
    const db = new URL(TEST_DATABASE_URL);
    proxy = await startProxy({ host: db.hostname, port: Number(db.port || 5432) });
    const dataDir = makeTmpDir('canopy-outage-');
    const url = new URL((await databaseEnv(dataDir)).DATABASE_URL!);
    url.host = `127.0.0.1:${proxy.port}`;
    s = await startTestServer({ DATA_DIR: dataDir, DATABASE_URL: url.toString(), DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS) });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await s.close();
    await proxy.close();
  });

  const buy = (token: string, pid: number, key: string, lang = 'en') =>
    fetch(`${s.url}${API_BASE}${PATHS.orderBuy}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: token, 'Idempotency-Key': key },
      body: JSON.stringify({ project_id: pid, tons: 1, password: TRADE_PASSWORD, lang }),
    });

  it('answers 503 service_unavailable with Retry-After while it is away, and works again after', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s);
    const before = await walletOfUser(s, u.id);
    const key = newKey();

    await proxy.cut();
    const started = Date.now();
    const answers: Response[] = [];
    while (Date.now() - started < 2000) {
      answers.push(await buy(u.token, pid, key));
      answers.push(await fetch(`${s.url}${API_BASE}${PATHS.userInfo}?lang=cn`, { headers: { Authorization: u.token } }));
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as { code: number; msg: string };
      expect(body.code).toBe(ERRORS.service_unavailable.code);
      expect([errorMessage('service_unavailable', 'en'), errorMessage('service_unavailable', 'cn')]).toContain(body.msg);
    }
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not_ready', database: 'unreachable' });
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

    await proxy.restore();
    const end = Date.now() + 15_000;
    let again: Response | null = null;
    while (Date.now() < end) {
      again = await buy(u.token, pid, key);
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(again?.status).toBe(200);
    expect(((await again!.json()) as { code: number }).code).toBe(0);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    // One order, paid once, the ledger whole: nothing was half-written by the cut.
    const orders = await s.db.selectFrom('orders').select(['total', 'booking_fee']).where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(1);
    expect((await walletOfUser(s, u.id)).available).toBe(before.available - orders[0]!.total);
    expect((await checkLedger(s.db)).ok).toBe(true);
  }, 60_000);
});

describe.skipIf(!onPostgres)('the database host accepting connections and never answering', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let s: TestServer;
  beforeAll(async () => {
    const db = new URL(TEST_DATABASE_URL);
    proxy = await startProxy({ host: db.hostname, port: Number(db.port || 5432) });
    const dataDir = makeTmpDir('canopy-hang-');
    const url = new URL((await databaseEnv(dataDir)).DATABASE_URL!);
    url.host = `127.0.0.1:${proxy.port}`;
    s = await startTestServer({ DATA_DIR: dataDir, DATABASE_URL: url.toString(), DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS) });
  });
  afterAll(async () => {
    proxy.unhang();
    await s.close();
    await proxy.close();
  });

  it('answers 503 service_unavailable within the connect timeout instead of hanging, and works again after', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    proxy.hang();
    // A read on the main pool; a login, whose rate limits are read first, on the limits' pool.
    const requests: Array<[string, RequestInit]> = [
      [`${PATHS.userInfo}?lang=en`, { headers: { Authorization: u.token } }],
      [PATHS.login, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.sg', password: 'not-the-password-1', type: 'personal', agree: true, lang: 'en' }) }],
    ];
    for (const [path, init] of requests) {
      const t0 = Date.now();
      const res = await fetch(`${s.url}${API_BASE}${path}`, { ...init, signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS * 10) });
      expect(Date.now() - t0).toBeLessThan(CONNECT_TIMEOUT_MS * 6);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await res.json()) as { code: number }).code).toBe(ERRORS.service_unavailable.code);
    }
    proxy.unhang();
    const end = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < end) {
      status = (await fetch(`${s.url}${API_BASE}${PATHS.userInfo}`, { headers: { Authorization: u.token } })).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  }, 60_000);
});

describe('which errors say the database is away', () => {
  it('classifies connection errors of PostgreSQL and SQLite, and nothing else', () => {
    const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const e of [err('ECONNREFUSED'), err('ECONNRESET'), err('57P01'), err('57P02'), err('57P03'), err('08006'), err('08001'), new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect'), err('SQLITE_BUSY'), err('SQLITE_CANTOPEN'), err('SQLITE_IOERR_FSYNC'), new Error('wrapped', { cause: err('ECONNREFUSED') })]) {
      expect(isConnectionError(e), String(e)).toBe(true);
    }
    for (const e of [err('23505'), err('SQLITE_CONSTRAINT_CHECK'), err('42P01'), err('55000', 'cannot refresh materialized view concurrently'), new Error('boom'), null, 'text']) {
      expect(isConnectionError(e), String(e)).toBe(false);
    }
  });
});

describe.skipIf(!onPostgres)('a database that refuses new connections (ALLOW_CONNECTIONS false)', () => {
  it("reads as the database away: PostgreSQL's own refusal, as a connection attempt gets it", async () => {
    const { default: pg } = await import('pg');
    // template0 is such a database on every PostgreSQL: its refusal is the one an operator's
    // ALTER DATABASE ... ALLOW_CONNECTIONS false gives every new connection.
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = '/template0';
    const client = new pg.Client({ connectionString: url.toString() });
    const refusal = await client.connect().then(
      () => null,
      (err: unknown) => err,
    );
    await client.end().catch(() => {});
    expect(refusal).toMatchObject({ code: '55000' });
    expect(isConnectionError(refusal)).toBe(true);
  });
});

