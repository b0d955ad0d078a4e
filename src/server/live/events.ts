import { EventEmitter } from 'node:events';
import { dialectOf, type DB } from '../db/connection';
import { atOnce, type WriteScope } from '../db/tx';
import { prepared, preparedPerShape } from '../db/prepared';
import { sql } from 'kysely';
import type { ServerMessage } from '../../shared/socket-events';

/** PostgreSQL channel on which every commit that queued socket messages says so (any instance, the CLI). */
export const LIVE_CHANNEL = 'canopy_live';

/** In this process: "messages were queued" (SQLite; on PostgreSQL the NOTIFY reaches every instance). */
export const liveBus = new EventEmitter();
liveBus.setMaxListeners(0);

const SHAPES = 8;

/** The insert of n messages, built once per n (db/prepared.ts): an order queues two, most writes one; an
 *  operator's broadcast of many keeps its rarer shapes out of the cache. */
const eventsInsert = preparedPerShape(
  (n: number) => (db, p: Record<string, unknown>) =>
    db.insertInto('live_events').values(Array.from({ length: n }, (_, i) => ({ user_id: p[`u${i}`] as number | null, payload: p[`m${i}`] as string, created_at: p.now as number }))),
  SHAPES,
);

/** PostgreSQL, more messages than eventsInsert keeps shapes for (a batch of orders): one statement for any
 *  number, in the order given. */
const eventsInsertMany = prepared((db, p: { rows: string }) => ({
  compile: () =>
    sql`insert into live_events (user_id, payload, created_at)
      select user_id, payload, created_at from json_to_recordset(${p.rows}::json) as x(ord int, user_id bigint, payload text, created_at bigint)
      order by ord`.compile(db),
}));
/** Queues a socket message. The server and the operator CLI both write here; the hubs deliver new rows to
 *  their open sockets (to one user, or to everyone when userId is null) as soon as they learn of them:
 *  on PostgreSQL a NOTIFY raised by the insert (migration 016; delivered when it commits, to every instance); on
 *  SQLite an in-process signal (the hub's read waits behind the writing transaction on the one
 *  connection, so it sees the row once committed) and, for the CLI's writes, the hub's slow poll. */
export async function publish(to: DB | WriteScope, message: ServerMessage, userId: number | null, now: number): Promise<void> {
  await publishAll(to, [{ message, userId }], now);
}

/** Queues several socket messages in one statement (one round trip inside a write transaction). On
 *  PostgreSQL the insert itself notifies the hubs (migration 016's trigger on live_events). `to` is the
 *  write transaction's scope, or the database for a message written on its own. */
export async function publishAll(to: DB | WriteScope, messages: readonly { message: ServerMessage; userId: number | null }[], now: number): Promise<void> {
  if (messages.length === 0) return;
  const w = 'ahead' in to ? to : atOnce(to);
  const db = w.tx;
  // Inside a PostgreSQL write transaction the job does not wait for the insert's round trip (db/tx.ts WriteScope).
  if (messages.length > SHAPES && dialectOf(db) === 'postgres') {
    const rows = messages.map(({ message, userId }, ord) => ({ ord, user_id: userId, payload: JSON.stringify(message), created_at: now }));
    await w.ahead(eventsInsertMany.compile(db, { rows: JSON.stringify(rows) }));
    return;
  }
  if (messages.length > SHAPES) {
    // SQLite: in inserts of at most SHAPES messages, whose shapes are kept (a batch of orders sends many).
    for (let i = 0; i < messages.length; i += SHAPES) await publishAll(w, messages.slice(i, i + SHAPES), now);
    return;
  }
  const values: Record<string, unknown> = { now };
  messages.forEach(({ message, userId }, i) => {
    values[`u${i}`] = userId;
    values[`m${i}`] = JSON.stringify(message);
  });
  await w.ahead(eventsInsert(messages.length).compile(db, values));
  if (dialectOf(db) !== 'postgres') liveBus.emit('published');
}
