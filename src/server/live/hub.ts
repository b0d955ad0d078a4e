import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { PING, PONG } from '../../shared/socket-events';
import { SOCKET_PATH, SOCKET_VERSION } from '../../shared/constants';
import type { Deps } from '../app';
import { findSession } from '../modules/session';

// The live socket (DECISIONS "Live socket"): opened with mem_id, token and v=4; answers "ping" with
// "pong"; delivers rows of live_events as they appear, whoever wrote them (server or operator CLI).

const POLL_MS = 150;

export interface Hub {
  attach(server: Server): void;
  /** Delivers queued events now (the poller does this on its own too). */
  flush(): Promise<void>;
  connections(): number;
  close(): Promise<void>;
}

export function createHub(deps: Deps): Hub {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const byUser = new Map<number, Set<WebSocket>>();
  let lastId = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  // Deliver only what is written after start-up; older rows were for sockets of a previous run.
  const ready = deps.db
    .selectFrom('live_events')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst()
    .then((row) => {
      lastId = Number(row?.max ?? 0);
    });

  async function deliver() {
    await ready;
    const rows = await deps.db.selectFrom('live_events').selectAll().where('id', '>', lastId).orderBy('id').limit(500).execute();
    for (const row of rows) {
      lastId = row.id;
      const targets = row.user_id === null ? [...byUser.values()].flatMap((s) => [...s]) : [...(byUser.get(row.user_id) ?? [])];
      for (const ws of targets) if (ws.readyState === ws.OPEN) ws.send(row.payload);
    }
  }

  function flush(): Promise<void> {
    flushing ??= deliver().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  function schedule() {
    timer = setTimeout(() => {
      flush()
        .catch((err: unknown) => deps.log.error('live hub poll failed', err))
        .finally(() => {
          if (timer) schedule();
        });
    }, POLL_MS);
    timer.unref();
  }
  schedule();

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const memId = Number(url.searchParams.get('mem_id'));
    const token = url.searchParams.get('token') ?? '';
    const version = url.searchParams.get('v');
    const session = token ? await findSession(deps, token).catch(() => null) : null;
    if (!session?.user || session.user.id !== memId || version !== String(SOCKET_VERSION)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const userId = session.user.id;
    wss.handleUpgrade(req, socket, head, (ws) => {
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(ws);
      ws.on('message', (data, isBinary) => {
        if (!isBinary && data.toString() === PING) ws.send(PONG);
      });
      ws.on('close', () => {
        set.delete(ws);
        if (set.size === 0) byUser.delete(userId);
      });
      ws.on('error', () => ws.terminate());
      ws.send(JSON.stringify({ type: 'hello', mem_id: userId, time: deps.clock.now() }));
    });
  }

  return {
    attach(server) {
      server.on('upgrade', (req, socket, head) => {
        if (!req.url?.startsWith(SOCKET_PATH)) {
          socket.destroy();
          return;
        }
        onUpgrade(req, socket, head).catch(() => socket.destroy());
      });
    },
    flush,
    connections: () => [...byUser.values()].reduce((n, s) => n + s.size, 0),
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const set of byUser.values()) for (const ws of set) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
