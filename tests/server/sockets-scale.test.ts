// Sockets at scale: small sockets (no per-message deflate unless SOCKET_PERMESSAGE_DEFLATE),
// one encoded message per event for every socket, and the hub's bookkeeping with shared handlers.
// Real ws clients against the running server; SQLite, and PostgreSQL with npm run test:pg.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PATHS } from '../../src/shared/api';
import { publish } from '../../src/server/live/events';
import type { ServerMessage } from '../../src/shared/socket-events';
import { registerUser, startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let socketHost: string;
const REG = { CODES_PER_IP_PER_HOUR: '1000', REGISTRATIONS_PER_IP_PER_HOUR: '1000' };

beforeAll(async () => {
  s = await startTestServer(REG);
  socketHost = (await s.api('GET', PATHS.baseconfig)).data.socket_host;
});
afterAll(async () => {
  await s?.close();
});

interface Opened {
  ws: WebSocket;
  /** the handshake's answer */
  res: IncomingMessage;
  messages: string[];
}

/** Opens a socket as the ws client does by default: offering permessage-deflate. */
function open(host: string, memId: number, token: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${host}?mem_id=${memId}&token=${token}&v=4`, { perMessageDeflate: true });
    const messages: string[] = [];
    let res: IncomingMessage | null = null;
    ws.on('upgrade', (r) => (res = r));
    ws.on('message', (data) => messages.push(data.toString()));
    ws.once('open', () => resolve({ ws, res: res!, messages }));
    ws.once('error', reject);
  });
}

// A wait for a condition, not a speed figure (a loaded machine can hold the test process for seconds).
const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return check();
};

let n = 0;
const newUser = () => registerUser(s, `scale.${++n}@example.sg`);

describe('per-message deflate', () => {
  it('is not negotiated by default, though the client offers it', async () => {
    const u = await newUser();
    const c = await open(socketHost, u.mem_id, u.token);
    try {
      expect(c.res.headers['sec-websocket-extensions']).toBeUndefined();
      expect(c.ws.extensions).toBe('');
    } finally {
      c.ws.close();
    }
  });

  it('is negotiated with SOCKET_PERMESSAGE_DEFLATE=true', async () => {
    const on = await startTestServer({ ...REG, SOCKET_PERMESSAGE_DEFLATE: 'true' });
    try {
      const host = (await on.api('GET', PATHS.baseconfig)).data.socket_host as string;
      const u = await registerUser(on, 'deflate.on@example.sg');
      const c = await open(host, u.mem_id, u.token);
      try {
        expect(c.res.headers['sec-websocket-extensions']).toContain('permessage-deflate');
        expect(c.ws.extensions).toContain('permessage-deflate');
        await publish(on.db, { type: 'invalidate', tables: ['news'] }, null, on.clock.now());
        expect(await until(() => c.messages.some((m) => m.includes('"news"')))).toBe(true);
      } finally {
        c.ws.close();
      }
    } finally {
      await on.close();
    }
  });
});

describe('fan-out', () => {
  it('gives a message for everyone to every socket once, as published, and a user message only to that user', async () => {
    const users = await Promise.all([newUser(), newUser(), newUser()]);
    const sockets: Array<Opened & { user: number }> = [];
    for (const u of users) for (let k = 0; k < 3; k++) sockets.push({ ...(await open(socketHost, u.mem_id, u.token)), user: u.mem_id });
    try {
      expect(await until(() => s.running.hub.connections() >= sockets.length)).toBe(true);
      for (const c of sockets) c.messages.length = 0; // hello
      const everyone: ServerMessage = { type: 'invalidate', tables: ['projects'], ids: [424242] };
      await publish(s.db, everyone, null, s.clock.now());
      const mine: ServerMessage = { type: 'invalidate', tables: ['user'] };
      await publish(s.db, mine, users[1]!.mem_id, s.clock.now());
      expect(await until(() => sockets.every((c) => c.messages.length >= (c.user === users[1]!.mem_id ? 2 : 1)))).toBe(true);
      await new Promise((r) => setTimeout(r, 100)); // nothing more arrives
      for (const c of sockets) {
        expect(c.messages.filter((m) => m === JSON.stringify(everyone))).toHaveLength(1);
        expect(c.messages.filter((m) => m === JSON.stringify(mine))).toHaveLength(c.user === users[1]!.mem_id ? 1 : 0);
        expect(c.messages).toHaveLength(c.user === users[1]!.mem_id ? 2 : 1);
      }
    } finally {
      for (const c of sockets) c.ws.close();
    }
    // Closed sockets leave the hub's sets (and their per-session counts: a new socket opens again).
    expect(await until(() => s.running.hub.connections() === 0)).toBe(true);
    const again = await open(socketHost, users[0]!.mem_id, users[0]!.token);
    again.ws.close();
  });
});
