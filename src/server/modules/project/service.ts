import { sql, type Selectable, type SqlBool } from 'kysely';
import type { ProjectsTable } from '../../db/schema';
import type { DB } from '../../db/connection';
import { keysetPage, NO_MEMO, type ListMemo } from '../../db/paging';
import type { Tx } from '../../db/tx';
import type { Deps } from '../../env';
import { isoSgt } from '../../lib/clock';
import { AppError } from '../../lib/http';
import type { PublicAnswer } from '../../lib/response-cache';
import type { JoinBlock, Project, ProjectListQuery, ProjectType } from '../../../shared/schemas/content';
import type { ProjectIcc } from '../../../shared/schemas/icc';
import { ICC_COLUMNS, iccFactsOf, judgeIcc } from '../../../shared/icc/engine';
import { ICC_RULES } from '../../../shared/icc/current-rules';
import { forSaleTons } from '../registry/holdings';

export type ProjectRow = Selectable<ProjectsTable>;

/** Why a project cannot be joined at `now` (docs/product.md#projects), or null when it can. */
export function joinBlock(p: ProjectRow, now: number): JoinBlock {
  // Sold out says "full" even after the scheduler has closed it: that is the more useful reason. Sold out is
  // out of what it can sell: its supply, capped by what it holds on its registry.
  if (forSaleTons(p) <= 0) return 'full';
  if (p.status === 'closed' || now >= p.end_time) return 'ended';
  // Until the operator resolves a registry difference (docs/product.md#registry-cancellation).
  if (p.sales_paused_at !== null) return 'paused';
  if (now < p.selling_time || p.status === 'pending_review') return 'not_started';
  return null;
}

/** A project's facts with the verdict of the rules file this build carries: judged on every read, so a new
 *  rules file re-judges every project without a migration. */
export function projectIcc(p: ProjectRow): ProjectIcc {
  return {
    host_country: p.host_country,
    programme: p.programme,
    methodology_id: p.methodology_id,
    methodology_date: p.methodology_date,
    reduction_start: p.reduction_start,
    reduction_end: p.reduction_end,
    authorisation: p.authorisation,
    authorisation_ref: p.authorisation_ref,
    adjustment: p.adjustment,
    adjustment_ref: p.adjustment_ref,
    ...judgeIcc(iccFactsOf(p), ICC_RULES),
  };
}

/** The ids of the listed projects the rules find eligible: the facts of every listed project judged, kept
 *  in the list's memo until projects change. */
async function eligibleIds(db: DB, memo: ListMemo): Promise<number[]> {
  return memo.memo('icc-eligible', async () => {
    const rows = await db.selectFrom('projects').select(['id', ...ICC_COLUMNS]).where('list_rank', '>=', 1).execute();
    return rows.filter((r) => judgeIcc(iccFactsOf(r), ICC_RULES).verdict === 'eligible').map((r) => Number(r.id));
  });
}

function toProject(p: ProjectRow, now: number): Project {
  return {
    id: p.id,
    name: p.name,
    name_cn: p.name_cn || p.name,
    location: p.location,
    location_cn: p.location_cn || p.location,
    country: p.country,
    country_cn: p.country_cn || p.country,
    type: p.type as ProjectType,
    standard: p.standard,
    status: p.status,
    price: p.price,
    presale_price: p.presale_price,
    min_tons: p.min_tons,
    max_tons: p.max_tons,
    total_tons: p.total_tons,
    // What a buyer can buy now: the supply capped by the registry units held and not yet promised.
    remaining_tons: forSaleTons(p),
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
    icc: projectIcc(p),
    updated_at: p.updated_at,
  };
}

/** What a search reads: names, places and countries in both languages (docs/product.md#projects). */
const SEARCHED = ['name', 'name_cn', 'location', 'location_cn', 'country', 'country_cn'] as const;

/** The list's status order as the database stores it (projects.list_rank, migration 006): in progress
 *  first, then presale, then closed; pending review is never listed. */
export const LIST_RANK: Record<ProjectRow['status'], number> = { in_progress: 3, presale: 2, closed: 1, pending_review: 0 };

/** The first instant after `now` at which one of these projects' join_block changes by the clock alone
 *  (its selling or end time), or Infinity: until then an answer made from them holds without an event. */
function nextBoundary(projects: ReadonlyArray<Pick<Project, 'selling_time_ms' | 'end_time_ms'>>, now: number): number {
  let until = Infinity;
  for (const p of projects) {
    if (p.selling_time_ms > now && p.selling_time_ms < until) until = p.selling_time_ms;
    if (p.end_time_ms > now && p.end_time_ms < until) until = p.end_time_ms;
  }
  return until;
}

/** A page of the visible projects: in progress, presale, closed; newest selling time first. Read by the
 *  index of its filter (migration 006), keyset-paged; the total from project_list_counts (a search's is
 *  counted, once per search until projects change); totals and page positions kept in `memo`. */
export async function listProjects(deps: Deps, q: ProjectListQuery): Promise<PublicAnswer> {
  const { db, clock, publicCache } = deps;
  const now = clock.now();
  const memo = publicCache?.memoFor('projects') ?? NO_MEMO;
  let base = db.selectFrom('projects');
  if (q.icc === 'eligible') {
    const ids = await eligibleIds(db, memo);
    base = ids.length ? base.where('id', 'in', ids) : base.where(sql<SqlBool>`1 = 0`);
  }
  // A status pins the rank, so the order within it is selling time then id (and the cursor holds those).
  if (q.status) base = base.where('list_rank', '=', LIST_RANK[q.status as ProjectRow['status']]);
  else base = base.where('list_rank', '>=', 1);
  if (q.type) base = base.where('type', '=', q.type);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;
    // SQLite's LIKE has no default escape character: name one, so % and _ typed by the user are literal.
    // lower() on both sides: case-insensitive on SQLite and PostgreSQL alike. No index serves a substring:
    // the list order's index is walked and rows filtered (the total is counted once per search).
    base = base.where((eb) =>
      eb.or(SEARCHED.map((col) => sql<SqlBool>`lower(${sql.ref(col)}) like lower(${like}) escape '\\'`)),
    );
  }
  const page = await keysetPage({
    base,
    keys: q.status ? ['selling_time', 'id'] : ['list_rank', 'selling_time', 'id'],
    q,
    memo,
    filter: JSON.stringify([q.status, q.type, q.q, q.icc]),
    select: (b) => b.selectAll(),
    map: (r) => toProject(r, now),
    // Without a search, the total is read from the counts the database keeps per rank and type.
    count: q.q || q.icc
      ? undefined
      : async () => {
          let counts = db.selectFrom('project_list_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'));
          counts = q.status ? counts.where('list_rank', '=', LIST_RANK[q.status as ProjectRow['status']]) : counts.where('list_rank', '>=', 1);
          if (q.type) counts = counts.where('type', '=', q.type);
          return Number((await counts.executeTakeFirstOrThrow()).n);
        },
  });
  return { data: page, until: nextBoundary(page.list, now) };
}

/** One visible project, kept until its join block changes by the clock. */
export async function projectDetail(deps: Deps, id: number): Promise<PublicAnswer> {
  const row = await findVisibleProject(deps.db, id);
  if (!row) throw new AppError('not_found');
  const now = deps.clock.now();
  const project = toProject(row, now);
  return { data: project, until: nextBoundary([project], now) };
}

export async function findVisibleProject(db: DB | Tx, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).where('status', '!=', 'pending_review').executeTakeFirst();
}
