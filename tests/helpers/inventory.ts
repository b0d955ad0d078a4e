// Registry units held for a test project (docs/product.md#registry-inventory): a project sells only what it
// holds in registry blocks, so a project a suite sells from is given a block first, through the inventory
// service, in the format of the registry the project names (Verra unless it names Gold Standard).
import type { DB } from '../../src/server/db/connection';
import { addBlock, registryOfProject } from '../../src/server/modules/registry/inventory';

/** A block of `tons` units (1..tons) of the project's own series, in its registry's format. */
export async function holdTons(db: DB, projectId: number, tons: number, now = Date.now()): Promise<void> {
  const p = await db.selectFrom('projects').select(['registry', 'registry_id', 'vintage']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const project = p.registry_id.replace(/\D/g, '') || String(projectId);
  // A batch number of its own per project: two test projects never share a series.
  const batch = String(70_000 + projectId);
  const vintage = p.vintage > 1990 ? p.vintage : 2025;
  const serialRange =
    registryOfProject(p.registry) === 'gold_standard'
      ? `GS1-1-MY-GS${project}-16-${vintage}-${batch}-1-${tons}`
      : `${batch}-1-${tons}-VCS-VCU-1-VER-MY-14-${project}-0101${vintage}-3112${vintage}-0`;
  await addBlock(db, { projectId, serialRange, source: 'seed', demo: true }, now);
}
