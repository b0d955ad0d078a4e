import { sql } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/connection';
import { writeTx, type Tx } from '../../db/tx';
import type { Deps } from '../../env';
import { sgtDay } from '../../lib/clock';
import { publish } from '../../live/events';
import { settlementTime } from '../order/calc';
import { emitWebhookEvent } from '../webhook/outbox';
import { registrySerialsOf } from './registry-units';

// A retirement's cancellation on its registry (docs/product.md#registry-cancellation). Every retirement
// opens one, pending, in its own write transaction: the retirement and its pending cancellation commit
// together or not at all. The operator cancels the units on the registry and records the registry's own
// reference once (registry:cancel); until then the certificate says it waits and by when, and a
// cancellation past its due time raises the overdue alert once (the scheduler).

const DAY_MS = 86_400_000;

/** When a retirement made at `now` must be cancelled by: the end (24:00 SGT) of the n-th Singapore working
 *  day after its SGT date. */
export function cancellationDueAt(now: number, config: Pick<Config, 'REGISTRY_CANCEL_DAYS' | 'PUBLIC_HOLIDAYS'>): number {
  return settlementTime(now, config.REGISTRY_CANCEL_DAYS, config.PUBLIC_HOLIDAYS) + DAY_MS;
}

/** The SGT date (YYYY-MM-DD) a cancellation is due by: the last day before its due time. */
export const dueDate = (dueAt: number) => sgtDay(dueAt - 1).date;

/** The pending cancellation of a retirement, in the retirement's own write transaction. */
export async function openCancellation(tx: Tx, retirementId: string, projectId: number, now: number, config: Pick<Config, 'REGISTRY_CANCEL_DAYS' | 'PUBLIC_HOLIDAYS'>): Promise<void> {
  await tx.insertInto('registry_cancellations').values({ retirement_id: retirementId, project_id: projectId, created_at: now, due_at: cancellationDueAt(now, config) }).execute();
}

/** One retirement waiting to be cancelled on its registry, as registry:pending lists it. */
export interface PendingCancellation {
  certificate_id: string;
  project_id: number;
  project_name: string;
  registry: string;
  registry_id: string;
  tons: number;
  beneficiary: string;
  registry_serials: string[];
  retired_at: number;
  due_on: string;
  overdue: boolean;
}

/** What waits to be cancelled, oldest first (by due time, then retirement time). */
export async function pendingCancellations(db: DB, now: number): Promise<PendingCancellation[]> {
  const rows = await db
    .selectFrom('registry_cancellations as c')
    .innerJoin('retirements as r', 'r.id', 'c.retirement_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select(['c.retirement_id', 'c.project_id', 'c.due_at', 'r.tons', 'r.beneficiary', 'r.created_at', 'p.name', 'p.registry', 'p.registry_id'])
    .where('c.recorded_at', 'is', null)
    .orderBy('c.due_at')
    .orderBy('r.created_at')
    .orderBy('c.retirement_id')
    .execute();
  const serials = await registrySerialsOf(
    db,
    rows.map((r) => r.retirement_id),
  );
  return rows.map((r) => ({
    certificate_id: r.retirement_id,
    project_id: r.project_id,
    project_name: r.name,
    registry: r.registry,
    registry_id: r.registry_id,
    tons: r.tons,
    beneficiary: r.beneficiary,
    registry_serials: serials.get(r.retirement_id) ?? [],
    retired_at: Number(r.created_at),
    due_on: dueDate(Number(r.due_at)),
    overdue: Number(r.due_at) <= now,
  }));
}

/** What registry:cancel did: recorded now, or found the same reference already recorded (nothing changed). */
export type CancelOutcome = { state: 'recorded' | 'unchanged'; certificate_id: string; reference: string; cancelled_on: string; before: { reference: string | null; cancelled_on: string | null } } | { state: 'unknown' } | { state: 'other_reference'; reference: string; cancelled_on: string };

/** Records the registry's cancellation of a retirement: once. The same reference again changes nothing;
 *  another reference is refused (a registry cancels a unit once). */
export async function recordCancellation(db: DB, certificateId: string, reference: string, cancelledOn: string, now: number): Promise<CancelOutcome> {
  return writeTx(db, async (tx, w) => {
    const row = await tx
      .selectFrom('registry_cancellations as c')
      .innerJoin('retirements as r', 'r.id', 'c.retirement_id')
      .select(['c.reference', 'c.cancelled_on', 'r.user_id', 'r.project_id', 'r.tons'])
      .where('c.retirement_id', '=', certificateId)
      .executeTakeFirst();
    if (!row) return { state: 'unknown' } as const;
    if (row.reference !== null) {
      if (row.reference === reference) return { state: 'unchanged', certificate_id: certificateId, reference, cancelled_on: row.cancelled_on!, before: { reference: row.reference, cancelled_on: row.cancelled_on } } as const;
      return { state: 'other_reference', reference: row.reference, cancelled_on: row.cancelled_on! } as const;
    }
    // Conditional on still pending: of two recordings that meet, the second finds the first's reference.
    const done = await tx.updateTable('registry_cancellations').set({ reference, cancelled_on: cancelledOn, recorded_at: now }).where('retirement_id', '=', certificateId).where('recorded_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return { state: 'unknown' } as const;
    // Cancelled units have left the registry account, with the promise kept (registry/holdings.ts).
    await tx
      .updateTable('projects')
      .set((eb) => ({ cancelled_tons: eb('cancelled_tons', '+', row.tons), updated_at: now }))
      .where('id', '=', row.project_id)
      .execute();
    // The owner's list, the public certificate (kept by the response cache) and the transparency figures.
    await publish(w, { type: 'invalidate', tables: ['retirements', 'certificates'] }, row.user_id, now);
    await publish(w, { type: 'invalidate', tables: ['retirements', 'certificates'], ids: [row.project_id] }, null, now);
    // Integrators learn it as members do: in the transaction that records it, once (a repeat is 'unchanged').
    const event = { id: certificateId, project_id: row.project_id, tons: Number(row.tons), registry_reference: reference, registry_cancelled_on: cancelledOn };
    await emitWebhookEvent(w, { owner: row.user_id, mode: 'live', type: 'retirement.cancelled', data: event }, now);
    return { state: 'recorded', certificate_id: certificateId, reference, cancelled_on: cancelledOn, before: { reference: null, cancelled_on: null } } as const;
  });
}

/** The overdue cancellations: each raises the alert once (an error line in the log for the operator, kept
 *  by alerted_at), and the metric canopy_registry_cancellations_overdue holds how many are overdue now.
 *  Answers how many were newly alerted. */
export async function alertOverdueCancellations(deps: Pick<Deps, 'db' | 'log' | 'metrics'>, now: number): Promise<number> {
  const { db } = deps;
  // Read first (the partial index of pending rows): a write only when one falls due, not on every tick.
  const overdue = await db
    .selectFrom('registry_cancellations')
    .select([db.fn.countAll<number>().as('n'), sql<number>`coalesce(sum(case when alerted_at is null then 1 else 0 end), 0)`.as('fresh')])
    .where('recorded_at', 'is', null)
    .where('due_at', '<=', now)
    .executeTakeFirstOrThrow();
  deps.metrics?.registryCancellationsOverdue.set(Number(overdue.n));
  if (Number(overdue.fresh) === 0) return 0;
  // A conditional update: with several instances, each overdue cancellation is alerted by one of them.
  const fresh = await writeTx(db, (tx) =>
    tx.updateTable('registry_cancellations').set({ alerted_at: now }).where('recorded_at', 'is', null).where('alerted_at', 'is', null).where('due_at', '<=', now).returning(['retirement_id', 'due_at']).execute(),
  );
  for (const r of fresh) deps.log.error(`registry cancellation overdue: certificate ${r.retirement_id} was due by ${dueDate(Number(r.due_at))} SGT; cancel its units on the registry and record it with registry:cancel`);
  return fresh.length;
}
