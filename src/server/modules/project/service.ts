import { sql, type Selectable, type SqlBool } from 'kysely';
import type { ProjectsTable } from '../../db/schema';
import type { DB } from '../../db/connection';
import { pageOf } from '../../db/paging';
import type { Tx } from '../../db/tx';
import { isoSgt } from '../../lib/clock';
import type { JoinBlock, Project, ProjectType } from '../../../shared/schemas/content';

export type ProjectRow = Selectable<ProjectsTable>;

/** Why a project cannot be joined at `now` (DECISIONS "Projects"), or null when it can. */
export function joinBlock(p: ProjectRow, now: number): JoinBlock {
  // Sold out says "full" even after the scheduler has closed it: that is the more useful reason.
  if (p.remaining_tons <= 0) return 'full';
  if (p.status === 'closed' || now >= p.end_time) return 'ended';
  if (now < p.selling_time || p.status === 'pending_review') return 'not_started';
  return null;
}

export function toProject(p: ProjectRow, now: number): Project {
  return {
    id: p.id,
    name: p.name,
    name_cn: p.name_cn || p.name,
    location: p.location,
    type: p.type as ProjectType,
    standard: p.standard,
    status: p.status,
    price: p.price,
    presale_price: p.presale_price,
    min_tons: p.min_tons,
    max_tons: p.max_tons,
    total_tons: p.total_tons,
    remaining_tons: p.remaining_tons,
    progress: p.total_tons > 0 ? Math.floor(((p.total_tons - p.remaining_tons) * 100) / p.total_tons) : 0,
    selling_time: isoSgt(p.selling_time),
    selling_time_ms: p.selling_time,
    end_time: isoSgt(p.end_time),
    end_time_ms: p.end_time,
    cycle_value: p.cycle_value,
    cycle_unit: p.cycle_unit,
    yield_bp: p.yield_bp,
    required_grade: p.required_grade,
    monthly_limit: p.monthly_limit,
    total_limit: p.total_limit,
    company: p.company,
    registry_id: p.registry_id,
    methodology: p.methodology,
    vintage: p.vintage,
    size_ha: p.size_ha,
    image: p.image,
    intro: p.intro,
    intro_cn: p.intro_cn || p.intro,
    join_block: joinBlock(p, now),
    updated_at: p.updated_at,
  };
}

export async function listProjects(
  db: DB,
  q: { status: string; type: string; q: string; page: number; page_size: number },
  now: number,
) {
  let query = db.selectFrom('projects').where('status', '!=', 'pending_review');
  if (q.status) query = query.where('status', '=', q.status as ProjectRow['status']);
  if (q.type) query = query.where('type', '=', q.type);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;
    // SQLite's LIKE has no default escape character: name one, so % and _ typed by the user are literal.
    // lower() on both sides: case-insensitive on SQLite and PostgreSQL alike.
    query = query.where((eb) =>
      eb.or(['name', 'name_cn', 'location'].map((col) => sql<SqlBool>`lower(${sql.ref(col)}) like lower(${like}) escape '\\'`)),
    );
  }
  return pageOf(
    query,
    q,
    (b) =>
      b
        .selectAll()
        .orderBy((eb) => eb.case().when('status', '=', 'in_progress').then(0).when('status', '=', 'presale').then(1).else(2).end())
        .orderBy('selling_time', 'desc')
        .orderBy('id', 'desc'),
    (r) => toProject(r, now),
  );
}

export async function findVisibleProject(db: DB | Tx, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).where('status', '!=', 'pending_review').executeTakeFirst();
}
