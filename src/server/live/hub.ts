import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { PING, PONG } from '../../shared/socket-events';
import { SOCKET_PATH } from '../../shared/constants';
import type { Deps } from '../env';
import type { Metrics } from '../lib/metrics';
import { createDelivery } from './delivery';
import type { EventFeed } from './feed';
import { createHandshake, type FindSession, type Who } from './handshake';
import { onPong, startLiveness } from './liveness';
import { createRegistry, LiveSocket, type Registry } from './registry';
import { createSessionCheck, type SessionCheck } from './session-check';

// The live socket (docs/product.md#live-updates): opened with mem_id, token and v=4 (handshake.ts); says
// hello, answers "ping" with "pong", and gets the committed live events meant for its user (delivery.ts, fed
// by feed.ts) until its session ends (session-check.ts) or it stops answering the server's pings
// (liveness.ts). A frame above SOCKET_MAX_FRAME_BYTES closes it with 1009 (ws maxPayload).
// docs/decisions/0021-live.md has the parts and why they are apart.

export interface Hub {
  attach(server: Server): void;
  /** Delivers queued events now (the wake-up sources do this on their own too). */
  flush(): Promise<void>;
  /** Closes the sockets whose sessions expired or whose users were disabled (runs every 30 s too). */
  sweep(): Promise<void>;
  connections(): number;
  close(): Promise<void>;
}

export interface HubOptions {
  /** The committed live events; the hub sends them on to its sockets. */
  feed: EventFeed;
  /** The session a socket's token names (the session module's lookup, handed in by startServer). */
  findSession: FindSession;
}

/** One set of handlers for every socket (`this` is the socket), not closures per socket. */
function socketHandlers(registry: Registry, metrics: Metrics | undefined) {
  return {
    message(this: WebSocket, data: RawData, isBinary: boolean) {
      (this as LiveSocket).alive = true;
      if (!isBinary && data.toString() === PING) {
        this.send(PONG);
        metrics?.socketMessages.inc({ kind: 'pong' });
      }
    },
    close(this: WebSocket) {
      // Every socket of this server is a LiveSocket (the WebSocket option).
      if (registry.remove(this as LiveSocket)) metrics?.socketsOpen.dec();
    },
    // A protocol error (an oversized frame: 1009) is already being closed by ws with its code; anything
    // else ends the connection.
    error(this: WebSocket) {
      if (this.readyState === this.OPEN) this.terminate();
    },
  };
}

/** Opens the socket of a handshake that passed, registers it and says hello. */
function opener(deps: Deps, wss: WebSocketServer, registry: Registry, sessions: SessionCheck) {
  const handlers = socketHandlers(registry, deps.metrics);
  return (req: IncomingMessage, socket: Duplex, head: Buffer, who: Who): boolean => {
    let opened = false;
    wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      const live = ws as LiveSocket;
      Object.assign(live, who);
      registry.add(live);
      deps.metrics?.socketsOpen.inc();
      live.on('message', handlers.message);
      live.on('close', handlers.close);
      live.on('error', handlers.error);
      live.on('pong', onPong);
      live.send(JSON.stringify({ type: 'hello', mem_id: who.userId, time: deps.clock.now() }));
      deps.metrics?.socketMessages.inc({ kind: 'hello' });
      // Checked once more now that it is registered: a session that ended between the handshake's check
      // and the registration published its session_end before this socket could get it.
      sessions.recheck([live]).catch((err: unknown) => deps.log.error('live hub session check failed', err));
    });
    return opened;
  };
}

export function createHub(deps: Deps, opts: HubOptions): Hub {
  const { config } = deps;
  // Small per socket: no per-message deflate unless configured (a zlib context per socket and direction),
  // no client tracking (the registry holds every socket), no per-socket timers (the pings and the session
  // sweep are one interval each for all).
  const wss = new WebSocketServer({
    WebSocket: LiveSocket,
    noServer: true,
    maxPayload: config.SOCKET_MAX_FRAME_BYTES,
    perMessageDeflate: config.SOCKET_PERMESSAGE_DEFLATE,
    clientTracking: false,
  });
  const registry = createRegistry({ perAddress: config.SOCKETS_PER_IP, perSession: config.SOCKETS_PER_TOKEN });
  const sessions = createSessionCheck(deps, registry);
  const unsubscribe = opts.feed.subscribe(createDelivery({ registry, sessions, clock: deps.clock, metrics: deps.metrics }));
  const stopPings = startLiveness(registry, config.SOCKET_PING_MS);
  const upgrade = createHandshake({ config, metrics: deps.metrics, findSession: opts.findSession, registry }, opener(deps, wss, registry, sessions));

  return {
    attach(server) {
      server.on('upgrade', (req, socket, head) => {
        if (!req.url?.startsWith(SOCKET_PATH)) {
          socket.destroy();
          return;
        }
        upgrade(req, socket, head).catch(() => socket.destroy());
      });
    },
    flush: () => opts.feed.flush(),
    connections: () => registry.all.size,
    sweep: () => sessions.sweep(),
    async close() {
      unsubscribe();
      sessions.stop();
      stopPings();
      for (const ws of [...registry.all]) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
