import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { PING, PONG, SOCKET_CLOSE_SESSION_ENDED, type ServerMessage } from '../../shared/socket-events';
import { SOCKET_PATH, SOCKET_RECONNECT_INTERVAL_MS, SOCKET_VERSION } from '../../shared/constants';
import type { Deps } from '../env';
import type { Config } from '../config';
import pg from 'pg';
import { addressOf, ipKey } from '../lib/http';
import { LIVE_CHANNEL, liveBus } from './events';
import { findSession } from '../modules/session';
import { prepared } from '../db/prepared';

// The live socket (docs/product.md#live-updates): opened with mem_id, token and v=4; answers "ping" with
// "pong"; delivers rows of live_events as they appear, whoever wrote them (server or operator CLI).
//
// It follows the session it was opened with: a `session_end` row (logout, password change or reset,
// lock, freeze) is never forwarded; it closes the sockets of the ended sessions with
// SOCKET_CLOSE_SESSION_ENDED (4001), and the client signs out. The handshake is refused with
//   403 for a foreign Origin (see originAllowed),
//   429 + Retry-After above SOCKETS_PER_IP sockets per client address or SOCKETS_PER_TOKEN per session,
//   401 for a missing, ended or mismatched session or a version other than 4.
// A frame above SOCKET_MAX_FRAME_BYTES closes the socket with 1009 (ws maxPayload).

/** After a change to the SQLite database's WAL file by any process, the new rows are read at once, then again
 *  this long after, and every this long while changes go on (at most one read per period for a burst; a
 *  commit's frames are written, and seen here, a moment before the commit is visible to a reader: every
 *  change is followed by a read at least this long after it). */
const FILE_SIGNAL_MS = 5;
/** How often open sockets' sessions are checked for expiry. */
const SWEEP_MS = 30_000;
const RETRY_AFTER_S = Math.ceil(SOCKET_RECONNECT_INTERVAL_MS / 1000);
/** A pre-encoded message is sent as a text frame. */
const SEND_TEXT = { binary: false } as const;

export interface Hub {
  attach(server: Server): void;
  /** Delivers queued events now (the poller does this on its own too). */
  flush(): Promise<void>;
  /** Closes the sockets whose sessions expired or whose users were disabled (runs every SWEEP_MS too). */
  sweep(): Promise<void>;
  connections(): number;
  close(): Promise<void>;
}

/**
 * An open live socket: ws's WebSocket (made by the server through its `WebSocket` option) with what the hub
 * keeps about it as fields of its own, so a socket is one object (no record beside it, no property added to
 * it later, no set per user), and its event handlers are shared (`this` is the socket, no closures).
 */
class LiveSocket extends WebSocket {
  userId = 0;
  sessionId = 0;
  address = '';
  /** The session's end as last read; sliding expiry only moves it later, so before it the session has
   *  not expired (revocation arrives as session_end). */
  expiresAt = 0;
  /** Answered (a pong or any message) since the last ping; a socket that did not is ended. */
  alive = true;
  /** Counted in the hub's maps and lists, until its close is handled. */
  registered = false;
  /** The user's sockets are a list threaded through them; the hub's byUser holds its first. */
  prevOfUser: LiveSocket | null = null;
  nextOfUser: LiveSocket | null = null;
}

/** New rows after the last delivered one (no gaps to look at): the hub's read after every commit, built once. */
const eventsAfter = prepared((db, p: { lastId: number }) => db.selectFrom('live_events').selectAll().where('id', '>', p.lastId).orderBy('id').limit(500));

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Which pages may open a socket. Browsers always send Origin on a WebSocket handshake and a page cannot
 * change it, so:
 * - no Origin header: not a browser (a script, the CLI, a native client). Allowed; the token in the query
 *   string is what authenticates it, and a web page cannot make such a request.
 * - Origin equal (scheme, host and port) to the origin of PUBLIC_URL (configured, or the address the
 *   server listens on), or listed in ALLOWED_ORIGINS: allowed.
 * - anything else, including the opaque "null" origin: refused with 403.
 * The Host header is deliberately not consulted: it names the socket's host, which with SOCKET_HOST is
 * not the app's, and a page served from any name that resolves here (DNS rebinding) would match it.
 * Without PUBLIC_URL only the listening address counts, so a deployment behind a proxy or a dev server
 * (vite on :5173) sets PUBLIC_URL to the address people open, or lists it in ALLOWED_ORIGINS.
 */
export function originAllowed(config: Pick<Config, 'PUBLIC_URL' | 'ALLOWED_ORIGINS'>, origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const asked = originOf(origin);
  if (!asked) return false;
  if (asked === originOf(config.PUBLIC_URL)) return true;
  return config.ALLOWED_ORIGINS.some((o) => originOf(o) === asked);
}

function refuse(socket: Duplex, status: string, extra = ''): void {
  socket.end(`HTTP/1.1 ${status}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
}

function bump(map: Map<string | number, number>, key: string | number, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

export function createHub(deps: Deps): Hub {
  const { config, metrics } = deps;
  // Small per socket: no per-message deflate unless configured (a zlib context per socket and direction),
  // no client tracking (byUser and `all` already hold every socket), no per-socket timers (the client pings;
  // the session sweep is one interval for all).
  const wss = new WebSocketServer({
    WebSocket: LiveSocket,
    noServer: true,
    maxPayload: config.SOCKET_MAX_FRAME_BYTES,
    perMessageDeflate: config.SOCKET_PERMESSAGE_DEFLATE,
    clientTracking: false,
  });
  /** Each user's first socket (the others follow it: nextOfUser). */
  const byUser = new Map<number, LiveSocket>();
  /** Every open socket, for messages to everyone (no array built per event). */
  const all = new Set<LiveSocket>();
  function ofUser(userId: number): LiveSocket[] {
    const out: LiveSocket[] = [];
    for (let ws = byUser.get(userId) ?? null; ws; ws = ws.nextOfUser) out.push(ws);
    return out;
  }
  function addToUser(ws: LiveSocket) {
    const first = byUser.get(ws.userId);
    if (first) {
      first.prevOfUser = ws;
      ws.nextOfUser = first;
    }
    byUser.set(ws.userId, ws);
  }
  function removeFromUser(ws: LiveSocket) {
    if (ws.prevOfUser) ws.prevOfUser.nextOfUser = ws.nextOfUser;
    else if (ws.nextOfUser) byUser.set(ws.userId, ws.nextOfUser);
    else byUser.delete(ws.userId);
    if (ws.nextOfUser) ws.nextOfUser.prevOfUser = ws.prevOfUser;
    ws.prevOfUser = ws.nextOfUser = null;
  }
  // Sockets per session and per client address, counted from the moment a handshake passes its check
  // (not only once open), so concurrent handshakes cannot slip past a cap together.
  const perSession = new Map<string | number, number>();
  const perAddress = new Map<string | number, number>();
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

  function endSessions(targets: LiveSocket[], sessions: number[] | undefined) {
    for (const ws of targets) {
      if (sessions && !sessions.includes(ws.sessionId)) continue;
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(SOCKET_CLOSE_SESSION_ENDED, 'session_ended');
    }
  }

  // Ids skipped over while reading: on PostgreSQL a transaction can commit a lower id after a higher one
  // was read (ids are taken at insert, rows appear at commit). They are looked for again for a while;
  // ids of rolled-back rows never appear and are forgotten.
  const gaps = new Map<number, number>(); // id -> first missed (ms)
  const GAP_TTL_MS = 10_000;

  async function deliver() {
    await ready;
    const gapIds = [...gaps.keys()];
    const rows =
      gapIds.length === 0
        ? (await eventsAfter.execute(deps.db, { lastId })).rows
        : await deps.db
            .selectFrom('live_events')
            .selectAll()
            .where((eb) => eb.or([eb('id', '>', lastId), eb('id', 'in', gapIds)]))
            .orderBy('id')
            .limit(500)
            .execute();
    const seenAt = Date.now();
    for (const [id, at] of gaps) if (seenAt - at > GAP_TTL_MS) gaps.delete(id);
    for (const row of rows) {
      gaps.delete(row.id);
      if (row.id > lastId + 1 && row.id - lastId <= 1000) for (let g = lastId + 1; g < row.id; g++) if (!gaps.has(g)) gaps.set(g, seenAt);
      lastId = Math.max(lastId, row.id);
      const targets: Iterable<LiveSocket> = row.user_id === null ? all : ofUser(row.user_id);
      let message: ServerMessage | null = null;
      try {
        message = JSON.parse(row.payload) as ServerMessage;
      } catch {
        message = null;
      }
      // The public answers kept in memory follow the same events as the sockets (lib/response-cache.ts).
      if (message) deps.publicCache?.onLiveMessage(message);
      if (message?.type === 'session_end') {
        endSessions([...targets], Array.isArray(message.sessions) ? message.sessions : undefined);
        continue;
      }
      // A socket whose session may have expired since its last check gets nothing until it is checked.
      const now = deps.clock.now();
      const stale: LiveSocket[] = [];
      for (const c of targets) if (c.expiresAt <= now) stale.push(c);
      if (stale.length > 0) await recheck(stale);
      // Encoded once for every socket (the row's JSON as it was published: no stringify per socket).
      const frame = Buffer.from(row.payload, 'utf8');
      let sent = 0;
      for (const ws of targets) {
        if (ws.readyState !== ws.OPEN) continue;
        ws.send(frame, SEND_TEXT);
        sent++;
      }
      if (sent > 0) metrics?.socketMessages.inc({ kind: 'event' }, sent);
    }
  }

  // One delivery at a time; a signal that arrives meanwhile runs another round after it (its row may have
  // committed after this round read).
  let again = false;
  function flush(): Promise<void> {
    if (flushing) {
      again = true;
      return flushing;
    }
    flushing = (async () => {
      do {
        again = false;
        await deliver();
      } while (again);
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }
  const onSignal = () => {
    flush().catch((err: unknown) => deps.log.error('live hub delivery failed', err));
  };

  // Push: this process's writes signal at once (liveBus); on PostgreSQL every instance's and the CLI's
  // commits arrive by LISTEN; on SQLite another process's commit (the operator CLI) changes the database's
  // WAL file, which a watch on DATA_DIR sees. The poll (LIVE_POLL_MS) only catches what no signal announced
  // (a LISTEN connection being re-made, a file system without change events).
  liveBus.on('published', onSignal);
  let fileWatch: fs.FSWatcher | null = null;
  let fileSignal: NodeJS.Timeout | null = null;
  let fileAgain = false;
  function armFileSignal() {
    fileSignal = setTimeout(() => {
      onSignal();
      if (fileAgain) {
        fileAgain = false;
        armFileSignal();
      } else fileSignal = null;
    }, FILE_SIGNAL_MS);
  }
  if (!config.DATABASE_URL) {
    const walName = `${path.basename(config.DB_FILE)}-wal`;
    try {
      fileWatch = fs.watch(path.dirname(config.DB_FILE), { persistent: false }, (_event, name) => {
        if (name !== walName) return;
        if (fileSignal) {
          fileAgain = true;
          return;
        }
        onSignal();
        armFileSignal();
      });
      fileWatch.on('error', () => fileWatch?.close());
    } catch (err) {
      deps.log.info('live hub: no file watch on the database directory; other processes\' events arrive by the poll', err);
    }
  }
  let listener: pg.Client | null = null;
  let closing = false;
  async function listen(attempt = 0): Promise<void> {
    if (!config.DATABASE_URL || closing) return;
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    client.on('notification', onSignal);
    client.on('error', () => {
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
      if (!closing) setTimeout(() => void listen(attempt + 1), Math.min(5000, 100 * 2 ** attempt)).unref();
    });
    try {
      await client.connect();
      await client.query(`listen ${LIVE_CHANNEL}`);
      listener = client;
      onSignal(); // whatever committed while nobody listened
    } catch (err) {
      deps.log.error('live hub LISTEN failed; retrying', err);
      client.end().catch(() => undefined);
      if (!closing) setTimeout(() => void listen(attempt + 1), Math.min(5000, 100 * 2 ** attempt)).unref();
    }
  }
  const listening = listen();

  function schedule() {
    timer = setTimeout(() => {
      flush()
        .catch((err: unknown) => deps.log.error('live hub poll failed', err))
        .finally(() => {
          if (timer) schedule();
        });
    }, config.LIVE_POLL_MS);
    timer.unref();
  }
  schedule();

  // Sessions also end by expiring (or by a disabled user): these sockets' sessions are read again; the
  // live ones learn their new end, the others close as a session_end would close them.
  async function recheck(conns: LiveSocket[]) {
    if (conns.length === 0) return;
    const ids = [...new Set(conns.map((c) => c.sessionId))];
    const now = deps.clock.now();
    const live = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await deps.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.id', 'sessions.expires_at'])
        .where('sessions.id', 'in', ids.slice(i, i + 500))
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', now)
        .where('users.disabled', '=', 0)
        .execute();
      for (const r of rows) live.set(r.id, r.expires_at);
    }
    for (const c of conns) {
      const end = live.get(c.sessionId);
      if (end === undefined) endSessions([c], undefined);
      else c.expiresAt = end;
    }
  }

  /** Every open socket's session, read again (every SWEEP_MS). */
  function sweep(): Promise<void> {
    return recheck([...all]);
  }

  // One set of handlers for every socket (`this` is the socket), not three closures per socket.
  function onMessage(this: WebSocket, data: RawData, isBinary: boolean) {
    (this as LiveSocket).alive = true;
    if (!isBinary && data.toString() === PING) {
      this.send(PONG);
      metrics?.socketMessages.inc({ kind: 'pong' });
    }
  }
  function onClose(this: WebSocket) {
    const ws = this as LiveSocket; // every socket of this server is one (the WebSocket option)
    if (!ws.registered) return;
    ws.registered = false;
    all.delete(ws);
    metrics?.socketsOpen.dec();
    removeFromUser(ws);
    bump(perSession, ws.sessionId, -1);
    bump(perAddress, ws.address, -1);
  }
  // A protocol error (an oversized frame: 1009) is already being closed by ws with its code; anything else
  // ends the connection.
  function onError(this: WebSocket) {
    if (this.readyState === this.OPEN) this.terminate();
  }
  function onPong(this: WebSocket) {
    (this as LiveSocket).alive = true;
  }
  // A connection that died without a close (no FIN ever arrives) is found by the next ping going unanswered.
  const pinger = setInterval(() => {
    for (const ws of all) {
      if (!ws.alive) ws.terminate();
      else {
        ws.alive = false;
        ws.ping();
      }
    }
  }, config.SOCKET_PING_MS);
  pinger.unref();
  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => deps.log.error('live hub session sweep failed', err));
  }, SWEEP_MS);
  sweeper.unref();

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (!originAllowed(config, req.headers.origin)) {
      refuse(socket, '403 Forbidden');
      return;
    }
    const xff = req.headers['x-forwarded-for'];
    // Counted like the throttles count addresses: an IPv6 /64 is one address.
    const address = ipKey(addressOf(req.socket.remoteAddress ?? 'unknown', Array.isArray(xff) ? xff.join(',') : xff, config.TRUST_PROXY));
    if ((perAddress.get(address) ?? 0) >= config.SOCKETS_PER_IP) {
      metrics?.throttleRefusals.inc({ limiter: 'sockets_per_ip' });
      refuse(socket, '429 Too Many Requests', `Retry-After: ${RETRY_AFTER_S}\r\n`);
      return;
    }
    bump(perAddress, address, 1);
    let sessionKey: number | null = null;
    let registered = false;
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const memId = Number(url.searchParams.get('mem_id'));
      const token = url.searchParams.get('token') ?? '';
      const version = url.searchParams.get('v');
      const session = token ? await findSession(deps, token).catch(() => null) : null;
      if (!session?.user || session.user.id !== memId || version !== String(SOCKET_VERSION)) {
        refuse(socket, '401 Unauthorized');
        return;
      }
      if ((perSession.get(session.id) ?? 0) >= config.SOCKETS_PER_TOKEN) {
        metrics?.throttleRefusals.inc({ limiter: 'sockets_per_token' });
        refuse(socket, '429 Too Many Requests', `Retry-After: ${RETRY_AFTER_S}\r\n`);
        return;
      }
      sessionKey = session.id;
      bump(perSession, sessionKey, 1);
      const userId = session.user.id;
      const sessionId = session.id;
      const expiresAt = session.expires_at;
      wss.handleUpgrade(req, socket, head, (ws) => {
        registered = true;
        ws.userId = userId;
        ws.sessionId = sessionId;
        ws.address = address;
        ws.expiresAt = expiresAt;
        ws.registered = true;
        addToUser(ws);
        all.add(ws);
        metrics?.socketsOpen.inc();
        ws.on('message', onMessage);
        ws.on('close', onClose);
        ws.on('error', onError);
        ws.on('pong', onPong);
        ws.send(JSON.stringify({ type: 'hello', mem_id: userId, time: deps.clock.now() }));
        metrics?.socketMessages.inc({ kind: 'hello' });
        // Checked once more now that it is registered: a session that ended between the handshake's check
        // and the registration published its session_end before this socket could get it.
        recheck([ws]).catch((err: unknown) => deps.log.error('live hub session check failed', err));
      });
    } finally {
      // Refused, or the handshake failed before the socket existed: give the reserved slots back.
      // handleUpgrade calls back synchronously once the handshake is valid; otherwise it answered the
      // request itself and there is no socket to count.
      if (!registered) {
        bump(perAddress, address, -1);
        if (sessionKey !== null) bump(perSession, sessionKey, -1);
      }
    }
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
    connections: () => all.size,
    sweep,
    async close() {
      closing = true;
      liveBus.off('published', onSignal);
      await listening;
      await listener?.end().catch(() => undefined);
      listener = null;
      clearInterval(sweeper);
      clearInterval(pinger);
      fileWatch?.close();
      if (fileSignal) clearTimeout(fileSignal);
      if (timer) clearTimeout(timer);
      timer = null;
      for (const ws of [...all]) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
