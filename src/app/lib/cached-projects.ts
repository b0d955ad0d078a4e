import { db as defaultDb, type CanopyDb } from './db';
import type { ProjectQuery } from './sync';
import type { Project } from '../../shared/schemas/content';

// The project list as this device keeps it (the project tab, the footprint result's and the monthly offset's
// choices), for live queries: it reads the store directly, so a screen that uses it loads the store's code
// with its own (not home: lib/store.ts).

// Server list order: in progress, then pre-sale, then closed; newest selling time first; then id.
const STATUS_RANK: Record<string, number> = { in_progress: 0, presale: 1 };
function compareProjects(a: Project, b: Project): number {
  return (STATUS_RANK[a.status] ?? 2) - (STATUS_RANK[b.status] ?? 2) || b.selling_time_ms - a.selling_time_ms || b.id - a.id;
}

/** The cached projects matching a list query, filtered and ordered as the server does (the text in names, places
 *  and countries of both languages: docs/product.md#projects), so offline filtering works. */
export async function cachedProjects(query: Pick<ProjectQuery, 'status' | 'type' | 'q' | 'icc'>, database: CanopyDb = defaultDb): Promise<Project[]> {
  const rows = query.status ? await database.projects.where('status').equals(query.status).toArray() : await database.projects.toArray();
  const needle = query.q?.trim().toLowerCase() ?? '';
  return rows
    .filter(
      (p) =>
        p.status !== 'pending_review' &&
        (!query.type || p.type === query.type) &&
        // A row cached by an older app has no verdict: it is not shown as eligible until refetched.
        (!query.icc || (p as Partial<Project>).icc?.verdict === query.icc) &&
        (!needle || [p.name, p.name_cn, p.location, p.location_cn, p.country, p.country_cn].some((s) => s?.toLowerCase().includes(needle))),
    )
    .sort(compareProjects);
}
