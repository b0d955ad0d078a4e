// The client's live socket (src/app/lib/socket.ts) with a fake WebSocket and fake timers: a close with
// SOCKET_CLOSE_SESSION_ENDED (4001) signs out and never reconnects; other closes reconnect as before; a
// socket that hears nothing back (not even "pong") for a few heartbeats is dropped and opened again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveSocket } from '../../src/app/lib/socket';
import { SOCKET_CONNECT_DELAY_MS, SOCKET_HEARTBEAT_MS, SOCKET_RECONNECT_INTERVAL_MS, SOCKET_RECONNECT_TRIES } from '../../src/shared/constants';
import { SOCKET_CLOSE_SESSION_ENDED, SOCKET_CLOSE_TOO_MANY } from '../../src/shared/socket-events';

class FakeWebSocket {
  static made: FakeWebSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  sent: string[] = [];
  constructor(public readonly url: string) {
    FakeWebSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  /** The server accepts the handshake. */
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The server (or the network) closes the socket with a code. */
  closedBy(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

let session = { memId: 42, token: 'token-of-session-one-xxxxxxxx' };
const onSessionEnded = vi.fn();
const onStatus = vi.fn();
let live: LiveSocket;

function make() {
  return new LiveSocket({
    socketHost: () => 'ws://canopy.test/h5/ws',
    session: () => session,
    onMessage: () => undefined,
    onStatus,
    onSessionEnded,
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.made = [];
  onSessionEnded.mockReset();
  onStatus.mockReset();
  session = { memId: 42, token: 'token-of-session-one-xxxxxxxx' };
  live = make();
});
afterEach(() => {
  live.close();
  vi.useRealTimers();
});

/** sync(), then the connect delay: the socket that was opened. */
function openFirst(): FakeWebSocket {
  live.sync();
  vi.advanceTimersByTime(SOCKET_CONNECT_DELAY_MS);
  expect(FakeWebSocket.made).toHaveLength(1);
  const ws = FakeWebSocket.made[0]!;
  ws.accept();
  return ws;
}

describe('LiveSocket', () => {
  it('opens socket_host with mem_id, token and v=4 after the connect delay', () => {
    const ws = openFirst();
    const url = new URL(ws.url);
    expect(url.origin + url.pathname).toBe('ws://canopy.test/h5/ws');
    expect(Object.fromEntries(url.searchParams)).toEqual({ mem_id: '42', token: session.token, v: '4' });
    expect(live.isOpen()).toBe(true);
  });

  it('a close with 4001 calls onSessionEnded once and never reconnects with that token', () => {
    const ws = openFirst();
    ws.closedBy(SOCKET_CLOSE_SESSION_ENDED, 'session_ended');
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(onStatus).toHaveBeenLastCalledWith('closed');
    vi.advanceTimersByTime((SOCKET_RECONNECT_TRIES + 1) * SOCKET_RECONNECT_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(1);
    // A route change before the app has signed out does not bring the dead token back either.
    live.sync();
    vi.advanceTimersByTime(SOCKET_CONNECT_DELAY_MS + SOCKET_RECONNECT_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(1);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    // Signed in again (a new token): a socket opens as usual.
    session = { memId: 42, token: 'token-of-session-two-xxxxxxxx' };
    live.sync();
    vi.advanceTimersByTime(SOCKET_CONNECT_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
    expect(new URL(FakeWebSocket.made[1]!.url).searchParams.get('token')).toBe(session.token);
  });

  it.each([
    ['an abnormal close (1006)', 1006],
    ['a cap refusal (4008)', SOCKET_CLOSE_TOO_MANY],
  ])('%s reconnects (up to the retry limit) and does not sign out', (_label, code) => {
    const ws = openFirst();
    ws.closedBy(code);
    expect(onSessionEnded).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SOCKET_RECONNECT_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
    // Failed attempts (no open in between) stop after SOCKET_RECONNECT_TRIES.
    for (let i = 0; i < SOCKET_RECONNECT_TRIES + 2; i++) {
      FakeWebSocket.made.at(-1)!.closedBy(1006);
      vi.advanceTimersByTime(SOCKET_RECONNECT_INTERVAL_MS);
    }
    expect(FakeWebSocket.made).toHaveLength(1 + SOCKET_RECONNECT_TRIES);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('drops a socket that answers no ping for three heartbeats (a connection that died without a close) and opens a new one', () => {
    const ws = openFirst();
    vi.advanceTimersByTime(2 * SOCKET_HEARTBEAT_MS);
    expect(ws.sent).toEqual(['ping', 'ping']);
    expect(live.isOpen()).toBe(true);
    vi.advanceTimersByTime(SOCKET_HEARTBEAT_MS);
    expect(live.isOpen()).toBe(false);
    expect(ws.readyState).toBe(3);
    expect(onStatus).toHaveBeenLastCalledWith('closed');
    expect(onSessionEnded).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SOCKET_RECONNECT_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
    // The dead socket's own close, whenever it comes, changes nothing.
    ws.closedBy(1006);
    vi.advanceTimersByTime(SOCKET_RECONNECT_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
  });

  it('keeps a socket whose pings are answered', () => {
    const ws = openFirst();
    for (let i = 0; i < 6; i++) {
      vi.advanceTimersByTime(SOCKET_HEARTBEAT_MS);
      ws.onmessage?.({ data: 'pong' });
    }
    expect(ws.sent).toHaveLength(6);
    expect(live.isOpen()).toBe(true);
    expect(FakeWebSocket.made).toHaveLength(1);
  });
});

describe('the socket URL on a page opened by another name of the machine', () => {
  // A server started without PUBLIC_URL tells the app ws://localhost:PORT; a phone on the LAN that opened
  // http://192.168.1.5:PORT would then dial itself. The page's own host is where the server is.
  function opened(host: string, page: string): URL {
    new LiveSocket({
      socketHost: () => host,
      pageUrl: () => page,
      session: () => session,
      onMessage: () => undefined,
      WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    }).sync();
    vi.advanceTimersByTime(SOCKET_CONNECT_DELAY_MS);
    return new URL(FakeWebSocket.made.at(-1)!.url);
  }

  it('dials the page host when the configured host is a loopback name and the page is not', () => {
    FakeWebSocket.made = [];
    expect(opened('ws://localhost:8080/h5/ws', 'http://192.168.1.5:8080/pages/home/index').host).toBe('192.168.1.5:8080');
    expect(opened('ws://127.0.0.1:8080/h5/ws', 'https://10.0.0.7:8443/').origin).toBe('wss://10.0.0.7:8443');
  });

  it('keeps a configured host that is not a loopback name, and loopback on a loopback page', () => {
    expect(opened('wss://live.canopy.sg/h5/ws', 'https://canopy.sg/').host).toBe('live.canopy.sg');
    expect(opened('ws://localhost:8080/h5/ws', 'http://127.0.0.1:8080/').host).toBe('localhost:8080');
    expect(opened('ws://localhost:8080/h5/ws', 'http://192.168.1.5:8080/').pathname).toBe('/h5/ws');
  });
});
