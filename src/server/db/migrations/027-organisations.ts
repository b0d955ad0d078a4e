import { sql, type Kysely } from 'kysely';
import { INT, idColumn, idType } from '../dialect';

// Organisations (docs/product.md#organisations, docs/decisions/0037-organisations.md). A corporate account
// (users.type 'corporate') stays the organisation's ledger account: its wallet, credits, orders and
// retirements are the organisation's. `organisations` holds the company's name, UEN and settings (1:1 with
// that account, keyed by it); `organisation_members` who may act for it and with which role (the
// registrant's own login is the owner); `organisation_invitations` the emailed links (the token only as
// its SHA-256, expiring, used once); `organisation_activity` every member action; `sessions.acting_for`
// the organisation a member's session acts for (null: the login's own account). Every corporate account
// that exists becomes an organisation with its login as owner.

const ROLES = `('owner', 'admin', 'buyer', 'approver', 'viewer')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('account_id', INT, (c) => c.primaryKey().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('uen', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('organisation_members')
    .addColumn('account_id', INT, (c) => c.notNull().references('organisations.account_id'))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql.raw(`role in ${ROLES}`)))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('organisation_members_pk', ['account_id', 'user_id'])
    .execute();
  await db.schema.createIndex('organisation_members_user').on('organisation_members').columns(['user_id']).execute();
  await db.schema
    .createTable('organisation_invitations')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('account_id', INT, (c) => c.notNull().references('organisations.account_id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql.raw(`role in ${ROLES} and role <> 'owner'`)))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', INT, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('expires_at', INT, (c) => c.notNull())
    .addColumn('accepted_at', INT)
    .addColumn('accepted_by', INT, (c) => c.references('users.id'))
    .addColumn('revoked_at', INT)
    .execute();
  await db.schema.createIndex('organisation_invitations_account').on('organisation_invitations').columns(['account_id', 'id']).execute();
  await db.schema
    .createTable('organisation_activity')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('account_id', INT, (c) => c.notNull().references('organisations.account_id'))
    .addColumn('member_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organisation_activity_account').on('organisation_activity').columns(['account_id', 'id']).execute();
  await db.schema.alterTable('sessions').addColumn('acting_for', INT).execute();
  await sql`insert into organisations (account_id, name, uen, settings, created_at)
    select id, company, uen, '{}', created_at from users where type = 'corporate'`.execute(db);
  await sql`insert into organisation_members (account_id, user_id, role, created_at)
    select id, id, 'owner', created_at from users where type = 'corporate'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('acting_for').execute();
  for (const table of ['organisation_activity', 'organisation_invitations', 'organisation_members', 'organisations']) await db.schema.dropTable(table).execute();
}
