import type { Tx } from '../../db/tx';

// What a project holds on its registry and what it has promised (docs/product.md#registry-inventory,
// docs/decisions/0041-registry-inventory.md). The figures come from the project's own row (migration 041),
// so the project list and the buy's checks read them with the project, never with a query per project:
// - held: the units of its registry blocks still in the account: block_tons - cancelled_tons;
// - promised: the tons it sold (total_tons - remaining_tons: bought, allocated to a pre-sale, retired) less
//   those whose retirement is cancelled on the registry (they left the account with the promise kept);
// - for sale: min(remaining_tons, held - promised). ledger:check (ledger.ts checkHoldings) proves promised <=
//   held for every project. A pre-sale sells forward tons, delivered at issuance:
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

/** Adds units to (or, negative, removes them from) a project's held counter, in the transaction that writes
 *  or splits its blocks. */
export async function changeBlockTons(tx: Tx, projectId: number, tons: number, now: number): Promise<void> {
  await tx
    .updateTable('projects')
    .set((eb) => ({ block_tons: eb('block_tons', '+', tons), updated_at: now }))
    .where('id', '=', projectId)
    .execute();
}
