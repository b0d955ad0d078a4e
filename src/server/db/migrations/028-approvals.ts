import { sql, type Kysely } from 'kysely';
import { INT, idColumn, idType } from '../dialect';

// Approvals (maker-checker) of an organisation (docs/product.md#approvals, docs/decisions/0038-approvals.md):
// a retirement or withdrawal above the organisation's threshold waits as a request. `kind` says which;
// `project_id` and `tons` a retirement's, `amount` and `fee` a withdrawal's (the money held from available
// to frozen while it waits); `input` the rest of the request (JSON, passwords never). `status` goes from
// waiting to approved, declined or expired, once; `result` what the approval made (JSON).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('approval_requests')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('account_id', INT, (c) => c.notNull().references('organisations.account_id'))
    .addColumn('maker_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('retire', 'withdraw')`))
    .addColumn('project_id', INT, (c) => c.references('projects.id'))
    .addColumn('tons', INT, (c) => c.notNull().defaultTo(0).check(sql`tons >= 0`))
    .addColumn('amount', INT, (c) => c.notNull().defaultTo(0).check(sql`amount >= 0`))
    .addColumn('fee', INT, (c) => c.notNull().defaultTo(0).check(sql`fee >= 0`))
    .addColumn('input', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('waiting', 'approved', 'declined', 'expired')`))
    .addColumn('decided_by', INT, (c) => c.references('users.id'))
    .addColumn('result', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('expires_at', INT, (c) => c.notNull())
    .addColumn('decided_at', INT)
    .execute();
  await db.schema.createIndex('approval_requests_account').on('approval_requests').columns(['account_id', 'id']).execute();
  // The scheduler's expiry and the tons a retirement finds held read only the waiting requests.
  await db.schema.createIndex('approval_requests_waiting').on('approval_requests').columns(['status', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('approval_requests').execute();
}
