import type { Project } from '../../../shared/schemas/content';
import type { ProjectSearch } from './project-search';

// Apart from project-search.ts (the URL's validators, which every route definition loads at start), so the
// list's sorting code loads with the project tab only.

/** The price a list sorts by: what a buyer pays per ton now (the pre-sale price during a pre-sale). */
const listPrice = (p: Project) => (p.status === 'presale' && p.presale_price ? p.presale_price : p.price);

/** Ended (closed, or past its end time): no longer buyable, so it never leads a sorted list. */
const ended = (p: Project) => (p.status === 'closed' || p.join_block === 'ended' ? 1 : 0);

const ORDERS: Record<NonNullable<ProjectSearch['sort']>, (a: Project, b: Project) => number> = {
  price_asc: (a, b) => listPrice(a) - listPrice(b),
  price_desc: (a, b) => listPrice(b) - listPrice(a),
  selling_soon: (a, b) => a.selling_time_ms - b.selling_time_ms,
  selling_latest: (a, b) => b.selling_time_ms - a.selling_time_ms,
};

/** The client-side part of the list query: standard filter and sort (stable; ties keep the server's order).
 *  A sort puts the ended projects after the open ones, each part in the sort's order. */
export function refineProjects(rows: Project[], search: Pick<ProjectSearch, 'standard' | 'sort'>): Project[] {
  const out = search.standard ? rows.filter((p) => p.standard === search.standard) : rows.slice();
  const order = search.sort ? ORDERS[search.sort] : undefined;
  return order ? out.sort((a, b) => ended(a) - ended(b) || order(a, b)) : out;
}
