import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';
import { AppError } from '../../lib/http';
import { formatSerialRange, isRegistryName, parseSerialRange } from '../registry/serials';

// The registry units a retirement cancels (docs/product.md#registry-cancellation). The platform's holdings
// of a project are registry blocks (registry_blocks); a retirement takes the lowest free units of the
// project's oldest block (lowest vintage, then the block added first), then of the next, and keeps them in
// retirement_units. On the registry, cancelling part of a block splits it: the units cancelled become their
// own serial range, written the registry's way (formatSerialRange), one range per block the retirement
// touched and per gap it had to skip. Read and written inside the retirement's write transaction, where no
// other writer allocates, so what is free here is free at the commit.

/** Units first..last of one registry block. */
export interface UnitRange {
  block_id: number;
  first: number;
  last: number;
}

/** The lowest `need` units of first..last not in `taken` (sorted by first), as ranges. */
export function lowestFreeUnits(taken: ReadonlyArray<{ first: number; last: number }>, first: number, last: number, need: number): Array<{ first: number; last: number }> {
  const out: Array<{ first: number; last: number }> = [];
  let next = first;
  let left = need;
  const take = (upTo: number) => {
    if (left <= 0 || upTo < next) return;
    const end = Math.min(upTo, next + left - 1);
    out.push({ first: next, last: end });
    left -= end - next + 1;
  };
  for (const t of taken) {
    take(Math.min(t.first - 1, last));
    next = Math.max(next, t.last + 1);
    if (left <= 0 || next > last) break;
  }
  take(last);
  return out;
}

const count = (ranges: ReadonlyArray<{ first: number; last: number }>) => ranges.reduce((n, r) => n + r.last - r.first + 1, 0);

/** A project's blocks in the order retirements use them: oldest vintage first, then the one added first. */
function blocksOf(db: DB | Tx, projectId: number) {
  return db.selectFrom('registry_blocks').select(['id', 'registry', 'serial_range', 'first_unit', 'last_unit']).where('project_id', '=', projectId).orderBy('vintage').orderBy('id').execute();
}

/** Takes `tons` units of a project's blocks for a retirement: null when the project has no blocks (a
 *  project listed before registry blocks, whose retirements keep Canopy's own serials only). More tons than
 *  the blocks have free is the refusal retire_registry_units_short: never written half. */
export async function allocateUnits(tx: Tx, projectId: number, tons: number): Promise<UnitRange[] | null> {
  const blocks = await blocksOf(tx, projectId);
  if (blocks.length === 0) return null;
  const taken = await tx
    .selectFrom('retirement_units')
    .select(['block_id', 'first_unit', 'last_unit'])
    .where(
      'block_id',
      'in',
      blocks.map((b) => b.id),
    )
    .orderBy('block_id')
    .orderBy('first_unit')
    .execute();
  const out: UnitRange[] = [];
  let need = tons;
  for (const b of blocks) {
    if (need <= 0) break;
    const mine = taken.filter((t) => t.block_id === b.id).map((t) => ({ first: Number(t.first_unit), last: Number(t.last_unit) }));
    const got = lowestFreeUnits(mine, Number(b.first_unit), Number(b.last_unit), need);
    for (const r of got) out.push({ block_id: b.id, ...r });
    need -= count(got);
  }
  if (need > 0) throw new AppError('retire_registry_units_short', { n: tons - need });
  return out;
}

/** The registry's own writing of units first..last of a block. */
export function registrySerial(block: { registry: string; serial_range: string }, first: number, last: number): string {
  const parsed = parseSerialRange(block.serial_range, isRegistryName(block.registry) ? block.registry : undefined);
  if (!parsed.ok) return block.serial_range; // a stored block was parsed when it was added: cannot happen
  return formatSerialRange(parsed.range, first, last);
}

/** The registry serial ranges of these retirements, as the registry writes them, by retirement id (in the
 *  order the units were taken). */
export async function registrySerialsOf(db: DB | Tx, ids: readonly string[]): Promise<Map<string, string[]>> {
  const byId = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('retirement_units as u')
    .innerJoin('registry_blocks as b', 'b.id', 'u.block_id')
    .select(['u.retirement_id', 'u.first_unit', 'u.last_unit', 'b.registry', 'b.serial_range'])
    .where('u.retirement_id', 'in', ids)
    .orderBy('b.vintage')
    .orderBy('b.id')
    .orderBy('u.first_unit')
    .execute();
  for (const r of rows) byId.get(r.retirement_id)?.push(registrySerial(r, Number(r.first_unit), Number(r.last_unit)));
  return byId;
}

/** The registry's public record of a project, by the registry's name and the project's registry id (its
 *  number): where anyone checks the issuance and the retirements. Empty for a registry not known here. */
export function registryUrl(registry: string, registryId: string): string {
  const n = /(\d+)/.exec(registryId)?.[1];
  if (!n) return '';
  const name = registry.toLowerCase().replace(/[^a-z]/g, '');
  if (name.startsWith('verra') || name === 'vcs') return `https://registry.verra.org/app/projectDetail/VCS/${n}`;
  if (name.startsWith('goldstandard') || name === 'gs') return `https://registry.goldstandard.org/projects/details/${n}`;
  if (name.startsWith('americancarbon') || name === 'acr') return `https://acr2.apx.com/mymodule/reg/prjView.asp?id1=${n}`;
  if (name.startsWith('climateaction') || name === 'car') return `https://thereserve2.apx.com/mymodule/reg/prjView.asp?id1=${n}`;
  if (name.startsWith('puro')) return `https://registry.puro.earth/projects/${n}`;
  if (name.startsWith('isometric')) return `https://registry.isometric.com/project/${n}`;
  return '';
}
