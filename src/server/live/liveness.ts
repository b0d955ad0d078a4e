import type { WebSocket } from 'ws';
import type { LiveSocket, Registry } from './registry';

// A connection that died without a close (a phone out of coverage, a laptop asleep: no FIN ever arrives)
// still holds its places under the caps. Every SOCKET_PING_MS the server pings each socket (a protocol ping:
// browsers answer it themselves) and ends, with no closing handshake, each one that has not answered since
// the previous ping; its close gives its places back. One timer for all sockets, none per socket.

/** ws's 'pong' handler: the other end is there (`this` is the socket). */
export function onPong(this: WebSocket): void {
  (this as LiveSocket).alive = true;
}

/** Starts the pings; returns their stop. */
export function startLiveness(registry: Registry, intervalMs: number): () => void {
  const timer = setInterval(() => {
    for (const ws of registry.all) {
      if (!ws.alive) {
        ws.terminate();
        continue;
      }
      ws.alive = false;
      ws.ping();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
