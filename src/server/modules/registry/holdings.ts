import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import type { Tx } from '../../db/tx';

// What a project holds on its registry and what it has promised (docs/product.md#registry-inventory,
// docs/decisions/0041-registry-inventory.md). The figures come from the project's own row (migration 041),
// so the project list and the buy's checks read them with the project, never with a query per project:
// - held: the units of its registry blocks still in the account: block_tons - cancelled_tons;
// - promised: the tons it sold (total_tons - remaining_tons: bought, allocated to a pre-sale, retired) less
//   those whose retirement is cancelled on the registry (they left the account with the promise kept);
// - for sale: min(remaining_tons, held - promised). A pre-sale sells forward tons, delivered at issuance:
//   its bookings take no held units, its allocation does (and waits for the issuance block).

/** The counters of a project row these figures read. */
export interface HeldCounters {
  status: string;
  total_tons: number;
  remaining_tons: number;
  block_tons: number;
  cancelled_tons: number;
}

export function heldTons(p: HeldCounters): number {
  return p.block_tons - p.cancelled_tons;
}

export function promisedTons(p: HeldCounters): number {
  return p.total_tons - p.remaining_tons - p.cancelled_tons;
}

/** Tons held and not yet promised: what the project may still sell from its registry account (0 when it
 *  promised more than it holds, which ledger:check reports). */
export function unpromisedTons(p: HeldCounters): number {
  return Math.max(0, heldTons(p) - promisedTons(p));
}

/** Tons a buyer can buy now: the project's remaining supply, capped by what it holds unpromised. A pre-sale's
 *  bookings are forward tons (delivered at issuance): its supply is not capped by what is held yet. */
export function forSaleTons(p: HeldCounters): number {
  if (p.status === 'presale' || p.status === 'pending_review') return p.remaining_tons;
  return Math.min(p.remaining_tons, unpromisedTons(p));
}

/** Units in a project's registry blocks, summed from the blocks themselves (ledger:check compares it with the
 *  counter block_tons). */
export async function blockTonsOf(db: DB | Tx, projectId: number): Promise<number> {
  const row = await db.selectFrom('registry_blocks').select(sql<number>`coalesce(sum(quantity), 0)`.as('n')).where('project_id', '=', projectId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Adds units to (or, negative, removes them from) a project's held counter, in the transaction that writes
 *  or splits its blocks. */
export async function changeBlockTons(tx: Tx, projectId: number, tons: number, now: number): Promise<void> {
  await tx
    .updateTable('projects')
    .set((eb) => ({ block_tons: eb('block_tons', '+', tons), updated_at: now }))
    .where('id', '=', projectId)
    .execute();
}

export interface HeldProblem {
  project_id: number;
  name: string;
  held: number;
  promised: number;
  block_tons: number;
  blocks_sum: number;
}

/** Every project that promised more than it holds, or whose held counter disagrees with its blocks: what
 *  ledger:check reports (empty: all hold). One query, grouped. */
export async function heldProblems(db: DB | Tx): Promise<HeldProblem[]> {
  const sums = db.selectFrom('registry_blocks').select(['project_id', sql<number>`sum(quantity)`.as('n')]).groupBy('project_id');
  const rows = await db
    .selectFrom('projects as p')
    .leftJoin(sums.as('b'), 'b.project_id', 'p.id')
    .select(['p.id', 'p.name', 'p.status', 'p.total_tons', 'p.remaining_tons', 'p.block_tons', 'p.cancelled_tons', sql<number | null>`b.n`.as('blocks_sum')])
    .orderBy('p.id')
    .execute();
  const out: HeldProblem[] = [];
  for (const r of rows) {
    const counters = { status: r.status, total_tons: Number(r.total_tons), remaining_tons: Number(r.remaining_tons), block_tons: Number(r.block_tons), cancelled_tons: Number(r.cancelled_tons) };
    const blocksSum = Number(r.blocks_sum ?? 0);
    const held = heldTons(counters);
    const promised = promisedTons(counters);
    if (promised > held || blocksSum !== counters.block_tons) {
      out.push({ project_id: Number(r.id), name: r.name, held, promised, block_tons: counters.block_tons, blocks_sum: blocksSum });
    }
  }
  return out;
}
