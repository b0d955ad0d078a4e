import { sql, type Kysely } from 'kysely';
import { INT, idType, idColumn } from '../dialect';

// Monthly offset plans (docs/product.md#monthly-offset): a member's standing order to buy N tons of one
// project on a day of each SGT month, with the consent she gave (its text and time) when she confirmed it
// with her payment password. `next_run_at` is when the next month's buy falls due (null unless active): the
// scheduler finds due plans by it. One outcome row per plan and month (placed, with its order, or refused,
// with the catalogue key of why and its message's numbers as JSON); its primary key is what makes a month's buy happen once.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('offset_plans')
    .addColumn('id', idType(db), idColumn(db))
    .addColumn('user_id', INT, (c) => c.notNull().references('users.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('tons', INT, (c) => c.notNull().check(sql`tons >= 1`))
    .addColumn('day', INT, (c) => c.notNull().check(sql`day between 1 and 31`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'paused', 'cancelled')`))
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consent_at', INT, (c) => c.notNull())
    .addColumn('next_run_at', INT)
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('updated_at', INT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('offset_plans_user').on('offset_plans').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('offset_plans_due').on('offset_plans').columns(['next_run_at']).execute();
  await db.schema
    .createTable('offset_runs')
    .addColumn('plan_id', INT, (c) => c.notNull().references('offset_plans.id'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('placed', 'refused')`))
    .addColumn('order_id', INT)
    .addColumn('reason', 'text')
    .addColumn('reason_params', 'text')
    .addColumn('created_at', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('offset_runs_pk', ['plan_id', 'month'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('offset_runs').execute();
  await db.schema.dropTable('offset_plans').execute();
}
