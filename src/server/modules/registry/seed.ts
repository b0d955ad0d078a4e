import { readSeedData, readSeedBlocks } from '../../db/seed-content';
import { writeTx } from '../../db/tx';
import type { DB } from '../../db/connection';
import { addBlockIn } from './inventory';

// Demo registry blocks (docs/product.md#first-run): with SEED_DEMO on, each listed seeded project (a pre-sale's
// issuance included) holds a block in its registry's format covering its whole supply, marked demo. A seeded
// project that already holds a demo block is left as it is, so a restart adds nothing and a database seeded
// before the inventory existed gets its blocks once.
export async function seedRegistryBlocks(db: DB, now: number): Promise<number> {
  const blocks = readSeedBlocks();
  const names = new Map(readSeedData().projects.map((p) => [p.slug, { name: p.name, registry_id: p.registry_id }]));
  return writeTx(db, async (tx) => {
    let added = 0;
    for (const b of blocks) {
      const seed = names.get(b.project);
      if (!seed) throw new Error(`seed-data/registry-blocks/blocks.json: no seeded project "${b.project}"`);
      const p = await tx.selectFrom('projects').select('id').where('name', '=', seed.name).where('registry_id', '=', seed.registry_id).orderBy('id').executeTakeFirst();
      if (!p) continue;
      const held = await tx.selectFrom('registry_blocks').select('id').where('project_id', '=', p.id).where('demo', '=', 1).executeTakeFirst();
      if (held) continue;
      await addBlockIn(tx, { projectId: p.id, serialRange: b.serial_range, quantity: b.quantity, account: b.account, source: 'seed', demo: true }, now);
      added++;
    }
    return added;
  });
}
