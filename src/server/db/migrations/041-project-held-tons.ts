import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../connection';
import { INT } from '../dialect';

// What a project holds on its registry, counted on the project's own row so the project list and the buy's
// checks read it without a query per project (docs/decisions/0041-registry-inventory.md):
// - block_tons: the units of every registry block held for it (registry_blocks.quantity summed), kept by
//   the inventory service in the transaction that writes a block;
// - cancelled_tons: the units of its retirements cancelled on the registry (they have left the account).
// Held = block_tons - cancelled_tons; promised = sold (total_tons - remaining_tons) - cancelled_tons; so what
// is still free to sell, held - promised, is block_tons - sold whatever was cancelled.
//
// The trigger `projects_held` is the database's last line under the buy's own check: an update that sells
// more (sold grows) past block_tons is refused. It judges only updates that sell, so a project that sold
// before it had blocks (a database from before this migration) can still be closed, edited or given back
// supply; it simply sells nothing more until blocks cover what it sold.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('block_tons', INT, (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('cancelled_tons', INT, (c) => c.notNull().defaultTo(0)).execute();
  const sells = `(new.total_tons - new.remaining_tons) > (old.total_tons - old.remaining_tons) and (new.total_tons - new.remaining_tons) > new.block_tons`;
  if (dialectOf(db) === 'postgres') {
    await sql
      .raw(
        `create function projects_held() returns trigger language plpgsql as $$ begin
           raise exception 'projects_held: % t sold, % t held in registry blocks', new.total_tons - new.remaining_tons, new.block_tons
             using errcode = 'check_violation', constraint = 'projects_held';
         end $$;
         create trigger projects_held before update on projects for each row when (${sells.replaceAll('new.', 'NEW.').replaceAll('old.', 'OLD.')}) execute function projects_held();`,
      )
      .execute(db);
    return;
  }
  await sql.raw(`create trigger projects_held before update of total_tons, remaining_tons on projects when ${sells} begin select raise(abort, 'projects_held'); end`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql.raw('drop trigger projects_held on projects; drop function projects_held();').execute(db);
  else await sql.raw('drop trigger projects_held').execute(db);
  await db.schema.alterTable('projects').dropColumn('cancelled_tons').execute();
  await db.schema.alterTable('projects').dropColumn('block_tons').execute();
}
