import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn, appendOnly } from '../dialect';

// Foundation tables. SQLite-first, written through Kysely's schema builder so PostgreSQL can follow.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('personal','corporate')`))
    .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uen', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ic_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invite_code', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', INT, (c) => c.references('users.id'))
    .addColumn('grade', INT, (c) => c.notNull().defaultTo(0).check(sql`grade between 0 and 5`))
    .addColumn('credit_score', 'text', (c) => c.notNull().defaultTo('excellent'))
    .addColumn('risk', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('login_fails', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('login_locked', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_password_hash', 'text')
    .addColumn('trade_fails', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('trade_locked', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', INT, (c) => c.references('users.id'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('expires_at', INT, (c) => c.notNull())
    .addColumn('last_seen_at', INT, (c) => c.notNull())
    .addColumn('revoked_at', INT)
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('tries', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('expires_at', INT, (c) => c.notNull())
    .addColumn('used_at', INT)
    .execute();
  await db.schema.createIndex('verification_codes_email').on('verification_codes').columns(['email', 'scene']).execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('to_email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('sent_at', INT)
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('outbox_to').on('outbox').column('to_email').execute();

  await db.schema
    .createTable('rate_events')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_events_kind_ip').on('rate_events').columns(['kind', 'ip', 'created_at']).execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('standard', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending_review','presale','in_progress','closed')`))
    .addColumn('price', INT, (c) => c.notNull().check(sql`price > 0`))
    .addColumn('presale_price', INT)
    .addColumn('min_tons', INT, (c) => c.notNull().check(sql`min_tons >= 1`))
    .addColumn('max_tons', INT, (c) => c.notNull())
    .addColumn('total_tons', INT, (c) => c.notNull())
    .addColumn('remaining_tons', INT, (c) => c.notNull())
    .addColumn('selling_time', INT, (c) => c.notNull())
    .addColumn('end_time', INT, (c) => c.notNull())
    .addColumn('cycle_value', INT, (c) => c.notNull())
    .addColumn('cycle_unit', 'text', (c) => c.notNull().check(sql`cycle_unit in ('days','hours','minutes')`))
    .addColumn('yield_bp', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('required_grade', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('monthly_limit', INT, (c) => c.notNull())
    .addColumn('total_limit', INT, (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('registry_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('methodology', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vintage', INT, (c) => c.notNull())
    .addColumn('size_ha', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('intro', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('intro_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .addCheckConstraint('projects_remaining', sql`remaining_tons >= 0 and remaining_tons <= total_tons`)
    .addCheckConstraint('projects_min_max', sql`max_tons >= min_tons`)
    .execute();
  await db.schema.createIndex('projects_status').on('projects').columns(['status', 'selling_time']).execute();

  await db.schema
    .createTable('news')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('summary_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('published_at', INT, (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('news_published').on('news').column('published_at').execute();

  await db.schema
    .createTable('faqs')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('question_cn', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('answer_cn', 'text', (c) => c.notNull())
    .addColumn('sort', INT, (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('pages')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_cn', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_cn', 'text', (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('banners')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_cn', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', INT, (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_cn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('read_at', INT)
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('live_events')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT)
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('operator_log')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('args', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('ok', INT, (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();

  // The ledger: one row per balance; user balances can never go negative.
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('owner_id', INT, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull().check(sql`unit in ('cents','tons')`))
    .addColumn('balance', INT, (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('ledger_accounts_not_negative', sql`owner_id = 0 or balance >= 0`)
    .addUniqueConstraint('ledger_accounts_owner_name', ['owner_id', 'name'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('fund_logs')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('entry_id', INT, (c) => c.notNull().references('ledger_entries.id'))
    .addColumn('account_id', INT, (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('owner_id', INT, (c) => c.notNull())
    .addColumn('account_name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', INT, (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('balance_after', INT, (c) => c.notNull())
    .addColumn('ref_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ref_id', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fund_logs_owner').on('fund_logs').columns(['owner_id', 'id']).execute();
  await db.schema.createIndex('fund_logs_account').on('fund_logs').column('account_id').execute();
  // Fund logs are append-only: the database itself refuses edits.
  await appendOnly(db, 'fund_logs');
}

export function down(): Promise<void> {
  return Promise.reject(new Error('The foundation migration is not reversible.'));
}
