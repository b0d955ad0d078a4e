import { WebSocket } from 'ws';

/**
 * An open live socket: ws's WebSocket (made by the server through its `WebSocket` option) with what the hub
 * keeps about it as fields of its own, so a socket is one object (no record beside it, no property added to
 * it later, no set per user), and its event handlers are shared (`this` is the socket, no closures).
 */
export class LiveSocket extends WebSocket {
  userId = 0;
  sessionId = 0;
  address = '';
  /** The session's end as last read; sliding expiry only moves it later, so before it the session has
   *  not expired (revocation arrives as session_end). */
  expiresAt = 0;
  /** Answered (a pong or any message) since the last ping; a socket that did not is ended (liveness.ts). */
  alive = true;
  /** Counted in the registry, until its close is handled. */
  registered = false;
  /** The user's sockets are a list threaded through them; the registry's byUser holds its first. */
  prevOfUser: LiveSocket | null = null;
  nextOfUser: LiveSocket | null = null;
}

/** The caps a handshake is held to (SOCKETS_PER_IP, SOCKETS_PER_TOKEN). */
export interface Caps {
  perAddress: number;
  perSession: number;
}

/**
 * The open sockets, by user and all together, and the places taken under the per-address and per-session
 * caps. A place is taken when a handshake passes its check (not only once the socket is open), so
 * concurrent handshakes cannot slip past a cap together; `remove` gives a registered socket's places back,
 * `release*` those of a handshake that ended without a socket.
 */
export interface Registry {
  /** Every open socket, for messages to everyone (no array built per event). */
  readonly all: ReadonlySet<LiveSocket>;
  /** Everyone's sockets for null, else the user's. */
  targets(userId: number | null): Iterable<LiveSocket>;
  /** Takes a place for `address`; false when it has none left. */
  claimAddress(address: string): boolean;
  releaseAddress(address: string): void;
  claimSession(sessionId: number): boolean;
  releaseSession(sessionId: number): void;
  /** A socket whose places are taken is now open. */
  add(ws: LiveSocket): void;
  /** A socket closed: out of the lists, its places given back (once, however often it is called; true
   *  the first time). */
  remove(ws: LiveSocket): boolean;
}

/** A count per key, with no entry for zero. */
function createCounter<K>() {
  const counts = new Map<K, number>();
  return {
    get: (key: K) => counts.get(key) ?? 0,
    bump(key: K, by: number) {
      const n = (counts.get(key) ?? 0) + by;
      if (n > 0) counts.set(key, n);
      else counts.delete(key);
    },
  };
}

export function createRegistry(caps: Caps): Registry {
  /** Each user's first socket (the others follow it: nextOfUser). */
  const byUser = new Map<number, LiveSocket>();
  const all = new Set<LiveSocket>();
  const perAddress = createCounter<string>();
  const perSession = createCounter<number>();

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

  return {
    all,
    targets: (userId) => (userId === null ? all : ofUser(userId)),
    claimAddress(address) {
      if (perAddress.get(address) >= caps.perAddress) return false;
      perAddress.bump(address, 1);
      return true;
    },
    releaseAddress: (address) => perAddress.bump(address, -1),
    claimSession(sessionId) {
      if (perSession.get(sessionId) >= caps.perSession) return false;
      perSession.bump(sessionId, 1);
      return true;
    },
    releaseSession: (sessionId) => perSession.bump(sessionId, -1),
    add(ws) {
      ws.registered = true;
      addToUser(ws);
      all.add(ws);
    },
    remove(ws) {
      if (!ws.registered) return false;
      ws.registered = false;
      all.delete(ws);
      removeFromUser(ws);
      perSession.bump(ws.sessionId, -1);
      perAddress.bump(ws.address, -1);
      return true;
    },
  };
}
