import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../connection';

// One durable write per order: on PostgreSQL every insert into live_events announces itself on the
// hubs' channel (NOTIFY is delivered when the transaction commits, and PostgreSQL folds a transaction's
// identical notifications into one), so publishing costs no round trip of its own inside the serial write
// section (a `select pg_notify(...)` after each insert would cost one per message). SQLite has no NOTIFY: its
// writers signal the hub in process, and the hub watches the database file for other processes' commits.
// The channel's name is written out (live/events.ts LIVE_CHANNEL listens on the same): a migration stays as it ran.
const LIVE_CHANNEL = 'canopy_live';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(
      `create or replace function live_events_notify() returns trigger language plpgsql as $$ begin perform pg_notify('${LIVE_CHANNEL}', ''); return null; end $$;
       create trigger live_events_notify after insert on live_events for each statement execute function live_events_notify();`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql.raw('drop trigger if exists live_events_notify on live_events; drop function if exists live_events_notify();').execute(db);
}
