import type { Selectable } from 'kysely';
import type { ServerMessage } from '../../shared/socket-events';
import type { DB } from '../db/connection';
import type { LiveEventsTable } from '../db/schema';
import { prepared } from '../db/prepared';
import type { Config } from '../config';
import type { Logger } from '../lib/log';
import { startWakeUps } from './wake-ups';

// The read side of the live events (live/events.ts writes them): the rows of live_events as they commit,
// whoever wrote them (this process, another instance, the operator CLI), in id order, each once, handed to
// the listeners: the socket hub (live/hub.ts) and the public answers' cache (lib/response-cache.ts).
// docs/product.md#live-updates has what a client is told; docs/decisions/0021-live.md the shape.

/** A committed row of live_events: the message as published (`payload`, sent on as it is) and parsed. */
export interface LiveEvent {
  id: number;
  /** The user it is for; null for everyone. */
  userId: number | null;
  payload: string;
  /** null when the payload is not a message of ours. */
  message: ServerMessage | null;
}

export type EventListener = (event: LiveEvent) => void | Promise<void>;

export interface EventFeed {
  /** `listener` gets every event committed from now on, after the listeners that subscribed before it
   *  (each awaited); returns the unsubscribe. */
  subscribe(listener: EventListener): () => void;
  /** Reads what committed since the last read and hands it on (the wake-up sources call this on their own). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

type Row = Selectable<LiveEventsTable>;

const BATCH = 500;
/** How long an id skipped over is looked for again (see createGaps). */
const GAP_TTL_MS = 10_000;
/** A jump of more ids than this is not a gap to look at (rows deleted, a sequence moved on). */
const MAX_GAP = 1000;

/** New rows after the last read one (no gaps to look at): the read after every commit, built once. */
const eventsAfter = prepared((db, p: { lastId: number }) => db.selectFrom('live_events').selectAll().where('id', '>', p.lastId).orderBy('id').limit(BATCH));

/**
 * Ids skipped over while reading: on PostgreSQL a transaction can commit a lower id after a higher one was
 * read (ids are taken at insert, rows appear at commit). They are looked for again for GAP_TTL_MS; ids of
 * rolled-back rows never appear and are forgotten.
 */
function createGaps() {
  const missedAt = new Map<number, number>(); // id -> first missed (ms)
  return {
    ids: () => [...missedAt.keys()],
    expire(now: number) {
      for (const [id, at] of missedAt) if (now - at > GAP_TTL_MS) missedAt.delete(id);
    },
    /** Row `id` was read after `lastId`: the ids between them are gaps now, and `id` is none. */
    seen(id: number, lastId: number, now: number) {
      missedAt.delete(id);
      if (id > lastId + 1 && id - lastId <= MAX_GAP) for (let g = lastId + 1; g < id; g++) if (!missedAt.has(g)) missedAt.set(g, now);
    },
  };
}

async function readAfter(db: DB, lastId: number, gapIds: number[]): Promise<Row[]> {
  if (gapIds.length === 0) return (await eventsAfter.execute(db, { lastId })).rows;
  return db
    .selectFrom('live_events')
    .selectAll()
    .where((eb) => eb.or([eb('id', '>', lastId), eb('id', 'in', gapIds)]))
    .orderBy('id')
    .limit(BATCH)
    .execute();
}

function toEvent(row: Row): LiveEvent {
  let message: ServerMessage | null;
  try {
    message = JSON.parse(row.payload) as ServerMessage;
  } catch {
    message = null;
  }
  return { id: row.id, userId: row.user_id, payload: row.payload, message };
}

/** Runs `round` one at a time; a call during a round runs another after it (its row may have committed
 *  after this round read). */
function serialize(round: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await round();
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
}

export function createEventFeed(deps: { db: DB; config: Config; log: Logger }): EventFeed {
  const listeners: EventListener[] = [];
  const gaps = createGaps();
  let lastId = 0;
  // Only what is written after start-up is handed on; older rows were for sockets of a previous run.
  const ready = deps.db
    .selectFrom('live_events')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst()
    .then((row) => {
      lastId = Number(row?.max ?? 0);
    });

  async function read(): Promise<void> {
    await ready;
    const rows = await readAfter(deps.db, lastId, gaps.ids());
    const seenAt = Date.now();
    gaps.expire(seenAt);
    for (const row of rows) {
      gaps.seen(row.id, lastId, seenAt);
      lastId = Math.max(lastId, row.id);
      const event = toEvent(row);
      for (const listener of listeners) {
        const done = listener(event);
        if (done) await done;
      }
    }
  }

  const flush = serialize(read);
  const wakeUps = startWakeUps(deps, {
    signal: () => void flush().catch((err: unknown) => deps.log.error('live hub delivery failed', err)),
    poll: () => flush().catch((err: unknown) => deps.log.error('live hub poll failed', err)),
  });

  return {
    subscribe(listener) {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
    flush,
    close: () => wakeUps.close(),
  };
}
