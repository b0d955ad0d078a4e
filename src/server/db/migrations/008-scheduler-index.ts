import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../connection';
import { INT } from '../dialect';

// The scheduler's due projects by index, so a tick costs nothing while nothing is due.
//
// projects.due_at: when the project next has to be moved by time, computed by the database from its status
// and times, so no writer can forget it (the rules of modules/order/transitions.ts moveProjectByTime):
//   presale      the earlier of selling_time (it opens) and end_time (it closes)
//   in_progress  end_time (it closes); 0, due at once, when it is sold out (remaining_tons = 0)
//   otherwise    null: pending review and closed projects are never moved by time
// The tick reads `due_at <= now` from the partial index projects_due (only live projects are in it), so a
// tick with nothing due reads no row, however many projects are live (a three-way OR of status and
// times would be answered by a scan of every live one).
// As in 006, SQLite can only ADD a VIRTUAL generated column (computed on read, indexable); PostgreSQL 15 a
// STORED one. The orders' due work was indexed already (004: orders_due_cycle, _deadline, _settle).
const DUE = sql`case status
  when 'presale' then case when selling_time < end_time then selling_time else end_time end
  when 'in_progress' then case when remaining_tons <= 0 then 0 else end_time end
end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('due_at', INT, (c) => {
      const generated = c.generatedAlwaysAs(DUE);
      return dialectOf(db) === 'postgres' ? generated.stored() : generated;
    })
    .execute();
  await db.schema
    .createIndex('projects_due')
    .on('projects')
    .column('due_at')
    .where(sql.ref('due_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('projects_due').execute();
  await db.schema.alterTable('projects').dropColumn('due_at').execute();
}
