import type { Clock } from '../lib/clock';
import type { Metrics } from '../lib/metrics';
import type { LiveEvent } from './feed';
import type { LiveSocket, Registry } from './registry';
import type { SessionCheck } from './session-check';

/** A pre-encoded message is sent as a text frame. */
const SEND_TEXT = { binary: false } as const;

/**
 * Sends each committed event to its sockets (the user's, or everyone's): encoded once for all of them (the
 * row's JSON as it was published, no stringify per socket). A `session_end` is never forwarded: it closes
 * the ended sessions' sockets instead. A socket whose session may have expired since its last check gets
 * nothing until it is checked.
 */
export function createDelivery(deps: { registry: Registry; sessions: SessionCheck; clock: Clock; metrics?: Metrics | undefined }) {
  const { registry, sessions, metrics } = deps;
  return async function deliver(event: LiveEvent): Promise<void> {
    const targets = registry.targets(event.userId);
    const message = event.message;
    if (message?.type === 'session_end') {
      sessions.end([...targets], Array.isArray(message.sessions) ? message.sessions : undefined);
      return;
    }
    const now = deps.clock.now();
    const stale: LiveSocket[] = [];
    for (const ws of targets) if (ws.expiresAt <= now) stale.push(ws);
    if (stale.length > 0) await sessions.recheck(stale);
    const frame = Buffer.from(event.payload, 'utf8');
    let sent = 0;
    for (const ws of targets) {
      if (ws.readyState !== ws.OPEN) continue;
      ws.send(frame, SEND_TEXT);
      sent++;
    }
    if (sent > 0) metrics?.socketMessages.inc({ kind: 'event' }, sent);
  };
}
