// A live socket whose other end stopped answering (a phone that lost its network, a laptop put to sleep: no
// close ever arrives) is noticed: the server pings every SOCKET_PING_MS and ends a socket that did not
// answer the previous ping, freeing its place under SOCKETS_PER_TOKEN and SOCKETS_PER_IP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerUser, startTestServer, type TestServer } from '../helpers/server';

const PING_MS = 200;

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ SOCKET_PING_MS: String(PING_MS), SOCKETS_PER_TOKEN: '1', REGISTRATIONS_PER_IP_PER_HOUR: '1000', CODES_PER_IP_PER_HOUR: '1000' });
});
afterAll(async () => {
  await s?.close();
});

interface Who {
  mem_id: number;
  token: string;
}

/** Opens a socket; with autoPong false it never answers the server's pings (ws answers them by default). */
function open(who: Who, autoPong: boolean): Promise<{ ws: WebSocket; closed: Promise<number>; pings: { n: number } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/h5/ws?mem_id=${who.mem_id}&token=${encodeURIComponent(who.token)}&v=4`, { autoPong });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    // Counted from the start: a ping can arrive in the same read as the upgrade's answer, before 'open' returns.
    const pings = { n: 0 };
    ws.on('ping', () => pings.n++);
    ws.once('open', () => resolve({ ws, closed, pings }));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
}

/** Resolves true if `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

const newUser = () => registerUser(s, `alive.${randomUUID().slice(0, 8)}@example.sg`);

describe('socket liveness', () => {
  it('ends a socket that stops answering pings within a few ping intervals, and frees its place under SOCKETS_PER_TOKEN', async () => {
    const u = await newUser();
    const silent = await open(u, false);
    // Two or three intervals at most; the bound leaves room for a loaded machine holding the test process.
    expect(await within(silent.closed, 15 * PING_MS)).toBe(true);
    expect(silent.pings.n).toBeGreaterThan(0);
    // Its place under SOCKETS_PER_TOKEN=1 is free again (once the server handled its own close, which can
    // come after the client saw the connection end).
    const end = Date.now() + 10_000;
    while (s.running.hub.connections() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    const again = await open(u, true);
    again.ws.close();
  });

  it('keeps a socket that answers pings open', async () => {
    const u = await newUser();
    const alive = await open(u, true);
    try {
      expect(await within(alive.closed, 6 * PING_MS)).toBe(false);
      expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      alive.ws.close();
    }
  });
});
