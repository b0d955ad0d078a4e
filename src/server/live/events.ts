import type { DB } from '../db/connection';
import type { Tx } from '../db/tx';
import type { ServerMessage } from '../../shared/socket-events';

/** Queues a socket message. The server and the operator CLI both write here; the hub in the running
 *  server delivers new rows to the open sockets (to one user, or to everyone when userId is null). */
export async function publish(db: DB | Tx, message: ServerMessage, userId: number | null, now: number): Promise<void> {
  await db.insertInto('live_events').values({ user_id: userId, payload: JSON.stringify(message), created_at: now }).execute();
}
