import { sql, type Kysely } from 'kysely';
import { appendOnly, dropAppendOnly, INT } from '../dialect';

// A retirement cancels registry units (docs/product.md#registry-cancellation,
// docs/decisions/0042-registry-cancellation.md).
//
// retirement_units: the units of a registry block (registry_blocks, migration 040) one retirement took, as
// unit numbers first..last of the block. The primary key (block_id, first_unit) refuses a second retirement
// of the same first unit even if two writers ever met; written once with the retirement, never changed.
//
// registry_cancellations: one row per retirement, written in the retirement's own transaction: pending until
// the operator records the registry's own retirement reference and date (then cancelled, never changed
// again). due_at is the end of the REGISTRY_CANCEL_DAYS-th Singapore working day after the retirement;
// alerted_at is when the overdue alert was raised (once).
//
// Retirements written before this migration took no registry units: they get a pending row due three days
// after they were made, so the operator sees them in registry:pending and records their cancellation too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('retirement_units')
    .addColumn('retirement_id', 'text', (c) => c.notNull().references('retirements.id'))
    .addColumn('block_id', INT, (c) => c.notNull().references('registry_blocks.id'))
    .addColumn('first_unit', INT, (c) => c.notNull())
    .addColumn('last_unit', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('retirement_units_pk', ['block_id', 'first_unit'])
    .addCheckConstraint('retirement_units_order', sql`first_unit >= 1 and last_unit >= first_unit`)
    .execute();
  await db.schema.createIndex('retirement_units_retirement').on('retirement_units').columns(['retirement_id']).execute();
  await appendOnly(db, 'retirement_units');
  await db.schema
    .createTable('registry_cancellations')
    .addColumn('retirement_id', 'text', (c) => c.primaryKey().references('retirements.id'))
    .addColumn('project_id', INT, (c) => c.notNull().references('projects.id'))
    .addColumn('created_at', INT, (c) => c.notNull())
    .addColumn('due_at', INT, (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('cancelled_on', 'text')
    .addColumn('recorded_at', INT)
    .addColumn('alerted_at', INT)
    .addCheckConstraint('registry_cancellations_recorded', sql`(reference is null) = (recorded_at is null) and (reference is null) = (cancelled_on is null)`)
    .execute();
  // What waits, oldest due first: registry:pending and the scheduler's overdue check read only these.
  await db.schema.createIndex('registry_cancellations_pending').on('registry_cancellations').columns(['due_at']).where(sql.ref('recorded_at'), 'is', null).execute();
  await db.schema.createIndex('registry_cancellations_project').on('registry_cancellations').columns(['project_id']).execute();
  await sql`insert into registry_cancellations (retirement_id, project_id, created_at, due_at)
            select id, project_id, created_at, created_at + 259200000 from retirements`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registry_cancellations').execute();
  await dropAppendOnly(db, 'retirement_units');
  await db.schema.dropTable('retirement_units').execute();
}
