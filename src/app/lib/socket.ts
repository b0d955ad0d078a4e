import {
  SOCKET_CONNECT_DELAY_MS,
  SOCKET_HEARTBEAT_MS,
  SOCKET_RECONNECT_INTERVAL_MS,
  SOCKET_RECONNECT_TRIES,
  SOCKET_VERSION,
} from '../../shared/constants';
import { PING, SOCKET_CLOSE_SESSION_ENDED, type ServerMessage } from '../../shared/socket-events';

// The live socket (docs/product.md#live-updates): after every route change, if the login info has a mem_id
// a socket is opened (after 300 ms when none exists), otherwise it is closed. Closed when the app is hidden
// or exits. On close it reconnects up to 5 times, 5000 ms apart. "ping" every 50000 ms; a socket that has
// heard nothing back (not even "pong") for MISSED_PINGS pings is dead without a close (the network went
// away) and is dropped and reconnected like a closed one. URL: socket_host with mem_id, token and v=4.
// Closed by the server with SOCKET_CLOSE_SESSION_ENDED (4001: logout elsewhere, password change or reset,
// lock, freeze): no reconnect, and onSessionEnded signs the app out.

/** Pings sent with nothing heard back before the socket is dropped at the next heartbeat. */
const MISSED_PINGS = 2;
/** The close code a dropped socket is handled with (as the browser reports a connection lost). */
const CLOSE_ABNORMAL = 1006;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URL to dial. A loopback socket host seen from a page on another host means the server was not told
 *  its public name (no PUBLIC_URL: a developer's machine opened from a phone on the LAN); dialling it would
 *  reach the phone itself, so the page's own host and scheme stand in. Only the page's address is used,
 *  never anything a request could forge. */
export function socketUrlFor(host: string, page: string | undefined): URL {
  const url = new URL(host);
  if (!page || !LOOPBACK.has(url.hostname)) return url;
  const here = new URL(page);
  if (LOOPBACK.has(here.hostname)) return url;
  url.protocol = here.protocol === 'https:' ? 'wss:' : 'ws:';
  url.host = here.host;
  return url;
}

export interface SocketDeps {
  socketHost: () => string | null;
  /** The page's own address (location.href in the app). */
  pageUrl?: () => string;
  session: () => { memId: number; token: string };
  onMessage: (message: ServerMessage) => void;
  onStatus?: (status: 'open' | 'closed') => void;
  /** The server closed the socket because its session ended (code 4001). */
  onSessionEnded?: () => void;
  WebSocketImpl?: typeof WebSocket;
}

export class LiveSocket {
  private ws: WebSocket | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retries = 0;
  /** Pings sent since anything was last heard on the socket. */
  private unanswered = 0;
  private wanted = false;
  private key = '';
  /** The memId:token whose session the server ended: never opened again. */
  private endedKey = '';

  constructor(private readonly deps: SocketDeps) {}

  /** Call after every route change. */
  sync(): void {
    const { memId, token } = this.deps.session();
    if (memId > 0 && token) {
      const key = `${memId}:${token}`;
      if (this.ws && this.key !== key) this.close();
      if (key === this.endedKey) return;
      this.wanted = true;
      if (!this.ws && !this.connectTimer && !this.reconnectTimer) {
        this.retries = 0;
        this.connectTimer = setTimeout(() => {
          this.connectTimer = null;
          this.open();
        }, SOCKET_CONNECT_DELAY_MS);
      }
    } else {
      this.close();
    }
  }

  /** Hidden or exiting: close, and do not reconnect until the next sync. */
  close(): void {
    this.wanted = false;
    for (const t of [this.connectTimer, this.reconnectTimer]) if (t) clearTimeout(t);
    this.connectTimer = this.reconnectTimer = null;
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= 1) ws.close(1000, 'bye');
  }

  isOpen(): boolean {
    return this.ws?.readyState === 1;
  }

  private open(): void {
    const host = this.deps.socketHost();
    const { memId, token } = this.deps.session();
    if (!host || !this.wanted || !token || memId <= 0) return;
    const url = socketUrlFor(host, this.deps.pageUrl?.() ?? globalThis.location?.href);
    url.searchParams.set('mem_id', String(memId));
    url.searchParams.set('token', token);
    url.searchParams.set('v', String(SOCKET_VERSION));
    const Impl = this.deps.WebSocketImpl ?? WebSocket;
    const ws = new Impl(url.toString());
    this.ws = ws;
    this.key = `${memId}:${token}`;
    ws.onopen = () => {
      this.retries = 0;
      this.startHeartbeat();
      this.deps.onStatus?.('open');
    };
    ws.onmessage = (event) => {
      this.unanswered = 0;
      if (typeof event.data !== 'string' || event.data === 'pong') return;
      try {
        this.deps.onMessage(JSON.parse(event.data) as ServerMessage);
      } catch {
        // not a message of ours
      }
    };
    ws.onclose = (event) => this.closed(ws, event.code);
  }

  /** `ws` closed with `code` (or was dropped): reconnect, unless its session ended. A socket already let go
   *  of is ignored. */
  private closed(ws: WebSocket, code: number): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopHeartbeat();
    this.deps.onStatus?.('closed');
    if (code === SOCKET_CLOSE_SESSION_ENDED) {
      // The token is dead: reconnecting would only be refused. Wait for the next sync with a new one.
      this.wanted = false;
      this.endedKey = this.key;
      this.deps.onSessionEnded?.();
      return;
    }
    if (this.wanted && this.retries < SOCKET_RECONNECT_TRIES) {
      this.retries++;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.open();
      }, SOCKET_RECONNECT_INTERVAL_MS);
    }
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.unanswered = 0;
    this.heartbeat = setInterval(() => {
      const ws = this.ws;
      if (ws?.readyState !== 1) return;
      if (this.unanswered >= MISSED_PINGS) {
        // Handled as closed now: the browser's own close of a dead connection can take minutes.
        this.closed(ws, CLOSE_ABNORMAL);
        ws.close();
        return;
      }
      ws.send(PING);
      this.unanswered++;
    }, SOCKET_HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
