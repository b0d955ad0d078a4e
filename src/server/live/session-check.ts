import { SOCKET_CLOSE_SESSION_ENDED } from '../../shared/socket-events';
import type { DB } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { LiveSocket, Registry } from './registry';

// A socket follows the session it was opened with: a `session_end` event (logout, password change or
// reset, lock, freeze, removal from an organisation) closes the sockets of the ended sessions with
// SOCKET_CLOSE_SESSION_ENDED (4001), and the client signs out. Sessions also end by expiring, by their user
// being disabled, or (acting for an organisation) by the membership being gone or the organisation's
// account disabled: those are
// found by reading the sessions again (before an event reaches a socket whose known end has passed, and
// every SWEEP_MS for all of them).

/** How often open sockets' sessions are checked for expiry. */
const SWEEP_MS = 30_000;
/** Sessions read per query. */
const CHUNK = 500;

export interface SessionCheck {
  /** Closes `targets` whose session is in `sessions` (all of them when undefined) with 4001. */
  end(targets: Iterable<LiveSocket>, sessions: readonly number[] | undefined): void;
  /** Reads these sockets' sessions again: the live ones learn their new end, the others close as a
   *  session_end would close them. */
  recheck(sockets: LiveSocket[]): Promise<void>;
  /** Every open socket's session, read again (every SWEEP_MS on its own until stop). */
  sweep(): Promise<void>;
  stop(): void;
}

/** The sessions among `ids` that are live now, with their ends. */
async function liveSessions(db: DB, ids: number[], now: number): Promise<Map<number, number>> {
  const live = new Map<number, number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      // A session acting for an organisation lives only while its membership does and the organisation's
      // account is not disabled (as modules/session.ts findSession answers it over HTTP).
      .leftJoin('organisation_members as m', (j) => j.onRef('m.account_id', '=', 'sessions.acting_for').onRef('m.user_id', '=', 'sessions.user_id'))
      .leftJoin('users as org', 'org.id', 'm.account_id')
      .select(['sessions.id', 'sessions.expires_at'])
      .where('sessions.id', 'in', ids.slice(i, i + CHUNK))
      .where((eb) => eb.or([eb('sessions.acting_for', 'is', null), eb('org.disabled', '=', 0)]))
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      .execute();
    for (const r of rows) live.set(r.id, r.expires_at);
  }
  return live;
}

export function createSessionCheck(deps: { db: DB; clock: Clock; log: Logger }, registry: Registry): SessionCheck {
  function end(targets: Iterable<LiveSocket>, sessions: readonly number[] | undefined) {
    for (const ws of targets) {
      if (sessions && !sessions.includes(ws.sessionId)) continue;
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(SOCKET_CLOSE_SESSION_ENDED, 'session_ended');
    }
  }

  async function recheck(sockets: LiveSocket[]) {
    if (sockets.length === 0) return;
    const live = await liveSessions(deps.db, [...new Set(sockets.map((ws) => ws.sessionId))], deps.clock.now());
    for (const ws of sockets) {
      const until = live.get(ws.sessionId);
      if (until === undefined) end([ws], undefined);
      else ws.expiresAt = until;
    }
  }

  const sweep = () => recheck([...registry.all]);
  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => deps.log.error('live hub session sweep failed', err));
  }, SWEEP_MS);
  sweeper.unref();

  return { end, recheck, sweep, stop: () => clearInterval(sweeper) };
}
