import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SOCKET_RECONNECT_INTERVAL_MS, SOCKET_VERSION } from '../../shared/constants';
import type { Config } from '../config';
import type { Metrics } from '../lib/metrics';
import { addressOf, ipKey } from '../lib/http';
import type { Registry } from './registry';

// The handshake of the live socket (docs/product.md#live-updates): opened with mem_id, token and v=4. It
// is refused with
//   403 for a foreign Origin (see originAllowed),
//   429 + Retry-After above SOCKETS_PER_IP sockets per client address or SOCKETS_PER_TOKEN per session,
//   401 for a missing, ended or mismatched session or a version other than 4.

const RETRY_AFTER_S = Math.ceil(SOCKET_RECONNECT_INTERVAL_MS / 1000);

/** The session a token names, or null: handed in by whoever makes the hub (live/ does not read sessions
 *  itself; the session module owns their rules). */
export type FindSession = (token: string) => Promise<{ id: number; user: { id: number } | null; expires_at: number } | null>;

/** Who a socket that passed the handshake belongs to. */
export interface Who {
  userId: number;
  sessionId: number;
  address: string;
  expiresAt: number;
}

/** Opens the socket of a handshake that passed (ws's handleUpgrade); true if it is open and registered by
 *  the time this returns (handleUpgrade calls back synchronously once the handshake is valid; otherwise it
 *  answered the request itself and there is no socket). */
export type OpenSocket = (req: IncomingMessage, socket: Duplex, head: Buffer, who: Who) => boolean;

export interface HandshakeDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'ALLOWED_ORIGINS' | 'TRUST_PROXY'>;
  metrics?: Metrics | undefined;
  findSession: FindSession;
  registry: Registry;
}

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
function originAllowed(config: Pick<Config, 'PUBLIC_URL' | 'ALLOWED_ORIGINS'>, origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const asked = originOf(origin);
  if (!asked) return false;
  if (asked === originOf(config.PUBLIC_URL)) return true;
  return config.ALLOWED_ORIGINS.some((o) => originOf(o) === asked);
}

function refuse(socket: Duplex, status: string, extra = ''): void {
  socket.end(`HTTP/1.1 ${status}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
}

function refuseTooMany(socket: Duplex, metrics: Metrics | undefined, limiter: 'sockets_per_ip' | 'sockets_per_token'): void {
  metrics?.throttleRefusals.inc({ limiter });
  refuse(socket, '429 Too Many Requests', `Retry-After: ${RETRY_AFTER_S}\r\n`);
}

/** The client's address, counted like the throttles count addresses: an IPv6 /64 is one address. */
function addressKey(req: IncomingMessage, trustProxy: number): string {
  const xff = req.headers['x-forwarded-for'];
  return ipKey(addressOf(req.socket.remoteAddress ?? 'unknown', Array.isArray(xff) ? xff.join(',') : xff, trustProxy));
}

/** The user and session of a handshake's query string, or null when it names none of ours. */
async function sessionOf(req: IncomingMessage, findSession: FindSession) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const memId = Number(url.searchParams.get('mem_id'));
  const token = url.searchParams.get('token') ?? '';
  const session = token ? await findSession(token).catch(() => null) : null;
  if (!session?.user || session.user.id !== memId || url.searchParams.get('v') !== String(SOCKET_VERSION)) return null;
  return { id: session.id, userId: session.user.id, expiresAt: session.expires_at };
}

/** Checks an upgrade request and opens its socket with `open`, or answers it with a refusal. */
export function createHandshake(deps: HandshakeDeps, open: OpenSocket) {
  const { config, metrics, registry } = deps;
  return async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (!originAllowed(config, req.headers.origin)) return refuse(socket, '403 Forbidden');
    const address = addressKey(req, config.TRUST_PROXY);
    if (!registry.claimAddress(address)) return refuseTooMany(socket, metrics, 'sockets_per_ip');
    let sessionId: number | null = null;
    let opened = false;
    try {
      const session = await sessionOf(req, deps.findSession);
      if (!session) return refuse(socket, '401 Unauthorized');
      if (!registry.claimSession(session.id)) return refuseTooMany(socket, metrics, 'sockets_per_token');
      sessionId = session.id;
      opened = open(req, socket, head, { userId: session.userId, sessionId: session.id, address, expiresAt: session.expiresAt });
    } finally {
      // Refused, or the handshake failed before the socket existed: the places taken are given back.
      if (!opened) {
        registry.releaseAddress(address);
        if (sessionId !== null) registry.releaseSession(sessionId);
      }
    }
  };
}
