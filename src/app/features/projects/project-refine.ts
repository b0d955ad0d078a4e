import type { Project } from '../../../shared/schemas/content';
import type { ProjectSearch } from './project-search';

// Apart from project-search.ts (the URL's validators, which every route definition loads at start), so the
// list's sorting code loads with the project tab only.

/** The price a list sorts by: what a buyer pays per ton now (the pre-sale price during a pre-sale). */
const listPrice = (p: Project) => (p.status === 'presale' && p.presale_price ? p.presale_price : p.price);

/** The client-side part of the list query: standard filter and sort (stable; ties keep the server's order). */
export function refineProjects(rows: Project[], search: Pick<ProjectSearch, 'standard' | 'sort'>): Project[] {
  const out = search.standard ? rows.filter((p) => p.standard === search.standard) : rows.slice();
  switch (search.sort) {
    case 'price_asc':
      return out.sort((a, b) => listPrice(a) - listPrice(b));
    case 'price_desc':
      return out.sort((a, b) => listPrice(b) - listPrice(a));
    case 'selling_soon':
      return out.sort((a, b) => a.selling_time_ms - b.selling_time_ms);
    case 'selling_latest':
      return out.sort((a, b) => b.selling_time_ms - a.selling_time_ms);
    default:
      return out;
  }
}
