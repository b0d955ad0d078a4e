import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../connection';
import { INT } from '../dialect';

// The public lists read by index (docs/decisions/0015-scale.md).
//
// projects.list_rank: the list's status order as a stored sort key, computed by the database from
// `status`, so no writer can forget it: in_progress 3, presale 2, closed 1, pending_review 0 (never
// listed: "visible" is list_rank >= 1). The list reads ORDER BY list_rank DESC, selling_time DESC, id DESC,
// one direction throughout, so a page after a cursor is the row comparison
// (list_rank, selling_time, id) < (?, ?, ?), which both databases answer as a range of the index.
// SQLite can only ADD a VIRTUAL generated column (computed on read, indexable); PostgreSQL 15 a STORED
// one. modules/project/service.ts keeps the same numbers in LIST_RANK (a test compares them).
//
// Indexes, one per filter the API offers (none, status, type, status+type; the text search `q` is a
// substring match, which no b-tree serves: it walks the list order and filters):
//   projects_list       (list_rank, selling_time, id)        no filter, and status (list_rank = n)
//   projects_type_list  (type, list_rank, selling_time, id)  type, and type+status
//   news_list           (published_at, id)                   news, newest first (replaces news_published,
//                                                            which lacked id for PostgreSQL's tie order)
// Each holds the whole sort key, so a deep page number walks the index only.
//
// project_list_counts: how many projects there are per (list_rank, type), kept by triggers on projects
// (insert, delete, and an update of status or type), so the list's totals are read from a table of at most
// twenty rows, never counted: not per page, and not after every change either (an order changes a
// project's remaining tons and drops the cached pages, but moves no count).
const RANK = sql`case status when 'in_progress' then 3 when 'presale' then 2 when 'closed' then 1 else 0 end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('list_rank', INT, (c) => {
      const generated = c.generatedAlwaysAs(RANK);
      return dialectOf(db) === 'postgres' ? generated.stored() : generated;
    })
    .execute();
  await db.schema.createIndex('projects_list').on('projects').columns(['list_rank', 'selling_time', 'id']).execute();
  await db.schema.createIndex('projects_type_list').on('projects').columns(['type', 'list_rank', 'selling_time', 'id']).execute();
  await db.schema.createIndex('news_list').on('news').columns(['published_at', 'id']).execute();
  await db.schema.dropIndex('news_published').execute();

  await db.schema
    .createTable('project_list_counts')
    .addColumn('list_rank', INT, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('n', INT, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_list_counts_pk', ['list_rank', 'type'])
    .execute();
  await sql`insert into project_list_counts (list_rank, type, n) select list_rank, type, count(*) from projects group by list_rank, type`.execute(db);
  const add = (row: 'new' | 'old', by: number) =>
    `insert into project_list_counts (list_rank, type, n) values (${row}.list_rank, ${row}.type, ${by})
     on conflict (list_rank, type) do update set n = project_list_counts.n + ${by}`;
  if (dialectOf(db) === 'postgres') {
    await sql
      .raw(
        `create function project_list_counts_track() returns trigger language plpgsql as $$
         begin
           if tg_op in ('UPDATE', 'DELETE') then ${add('old', -1)}; end if;
           if tg_op in ('UPDATE', 'INSERT') then ${add('new', 1)}; end if;
           return null;
         end $$;
         create trigger projects_count_insert_delete after insert or delete on projects
           for each row execute function project_list_counts_track();
         create trigger projects_count_update after update of status, type on projects
           for each row when (old.status is distinct from new.status or old.type is distinct from new.type)
           execute function project_list_counts_track();`,
      )
      .execute(db);
    return;
  }
  await sql.raw(`create trigger projects_count_insert after insert on projects begin ${add('new', 1)}; end`).execute(db);
  await sql.raw(`create trigger projects_count_delete after delete on projects begin ${add('old', -1)}; end`).execute(db);
  await sql
    .raw(
      `create trigger projects_count_update after update of status, type on projects
       when old.status is not new.status or old.type is not new.type
       begin ${add('old', -1)}; ${add('new', 1)}; end`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql.raw('drop trigger projects_count_insert_delete on projects; drop trigger projects_count_update on projects; drop function project_list_counts_track()').execute(db);
  } else {
    for (const name of ['projects_count_insert', 'projects_count_delete', 'projects_count_update']) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  await db.schema.dropTable('project_list_counts').execute();
  await db.schema.createIndex('news_published').on('news').column('published_at').execute();
  for (const name of ['news_list', 'projects_type_list', 'projects_list']) await db.schema.dropIndex(name).execute();
  await db.schema.alterTable('projects').dropColumn('list_rank').execute();
}
