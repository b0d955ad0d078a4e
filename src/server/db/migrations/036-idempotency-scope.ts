import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../connection';

// An Idempotency-Key is the key of whoever sent it (docs/decisions/0040-per-person-scopes.md): within the
// account it acts for (`user_id`), `scope` names the sender: '' for the account's own login (a person, an
// organisation's owner), 'member:<id>' for a member acting for the organisation; an API key would be
// another value. The unique key moves from (user_id, key) to (user_id, scope, key). SQLite cannot drop a
// table constraint, so there the table is rebuilt.

const COLUMNS = 'id, user_id, key, endpoint, request_hash, state, response, created_at';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table idempotency_keys add column scope text not null default ''`.execute(db);
    await sql`alter table idempotency_keys drop constraint idempotency_keys_user_key`.execute(db);
    await sql`alter table idempotency_keys add constraint idempotency_keys_scope_key unique (user_id, scope, key)`.execute(db);
    return;
  }
  await rebuild(db, `scope text not null default '', constraint idempotency_keys_scope_key unique (user_id, scope, key)`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Keys of two members that share a key cannot both stay under the old unique key: the later go.
  await sql`delete from idempotency_keys where id in (select b.id from idempotency_keys a join idempotency_keys b on a.user_id = b.user_id and a.key = b.key and a.id < b.id)`.execute(db);
  if (dialectOf(db) === 'postgres') {
    await sql`alter table idempotency_keys drop constraint idempotency_keys_scope_key`.execute(db);
    await sql`alter table idempotency_keys drop column scope`.execute(db);
    await sql`alter table idempotency_keys add constraint idempotency_keys_user_key unique (user_id, key)`.execute(db);
    return;
  }
  await rebuild(db, `constraint idempotency_keys_user_key unique (user_id, key)`);
}

/** SQLite: the table again with `extra` columns and constraints, its rows copied (a new scope is ''). */
async function rebuild(db: Kysely<unknown>, extra: string): Promise<void> {
  await sql
    .raw(
      `create table idempotency_keys_next (
         id integer primary key autoincrement, user_id bigint not null, key text not null, endpoint text not null,
         request_hash text not null, state text not null, response text, created_at bigint not null, ${extra})`,
    )
    .execute(db);
  await sql.raw(`insert into idempotency_keys_next (${COLUMNS}) select ${COLUMNS} from idempotency_keys`).execute(db);
  await sql`drop table idempotency_keys`.execute(db);
  await sql`alter table idempotency_keys_next rename to idempotency_keys`.execute(db);
  await sql`create index idempotency_keys_created on idempotency_keys (created_at)`.execute(db);
}
