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
  type Reader = Pick<DB, 'selectFrom'>;
  /** The seeded project a block is for, and whether it still lacks its demo block. */
  const missing = async (r: Reader, b: (typeof blocks)[number]): Promise<number | null> => {
    const seed = names.get(b.project);
    if (!seed) throw new Error(`seed-data/registry-blocks/blocks.json: no seeded project "${b.project}"`);
    const p = await r.selectFrom('projects').select('id').where('name', '=', seed.name).where('registry_id', '=', seed.registry_id).orderBy('id').executeTakeFirst();
    if (!p) return null;
    const held = await r.selectFrom('registry_blocks').select('id').where('project_id', '=', p.id).where('demo', '=', 1).executeTakeFirst();
    return held ? null : p.id;
  };
  // Read first: a restart finds every block in place and takes no write lock, so it never waits behind
  // another instance's writes before it listens (docs/operations.md#restarts).
  let due = false;
  for (const b of blocks) if ((await missing(db, b)) !== null) due = true;
  if (!due) return 0;
  return writeTx(db, async (tx) => {
    let added = 0;
    for (const b of blocks) {
      const projectId = await missing(tx, b);
      if (projectId === null) continue;
      await addBlockIn(tx, { projectId, serialRange: b.serial_range, quantity: b.quantity, account: b.account, source: 'seed', demo: true }, now);
      added++;
    }
    return added;
  });
}
