import { sql, type Kysely } from 'kysely';
import { INT, idColumn, idType } from '../dialect';

// Passkeys (docs/product.md#passkeys, docs/decisions/0034-passkeys.md).
//
// passkeys: one row per WebAuthn credential a member added: its id, public key and the user handle it was
// made for (base64url, as the browser gives them), the signature counter the last assertion carried, the transports the browser
// named, the device name the member gave it, and when it was last used. Removing a passkey deletes its row,
// so an assertion made with it later finds no key.
//
// passkey_challenges: the challenges handed out and not yet used, in the database so that whichever
// instance receives the answer finds the challenge another instance issued. A challenge is taken by the
// delete that reads it (single use) and is good until expires_at; user_id names the member adding a
// passkey (null for a sign-in, where the passkey itself names its owner).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('user_handle', 'text', (c) => c.notNull())
    .addColumn('counter', INT, (c) => c.notNull().defaultTo(0).check(sql`counter >= 0`))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_name', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('last_used_at', INT)
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').columns(['user_id', 'id']).execute();
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'login')`))
    .addColumn('user_id', INT, (c) => c.references('users.id'))
    .addColumn('expires_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
