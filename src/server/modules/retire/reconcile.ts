import type { DB } from '../../db/connection';
import { writeTx } from '../../db/tx';
import { publish } from '../../live/events';
import { formatSerialRange, parseSerialRange, seriesKey, type RegistryName, type SerialRange } from '../registry/serials';

// Reconciliation with a registry account's export (docs/product.md#registry-cancellation): what the
// registry holds and has retired, compared unit by unit with what Canopy counts. Canopy expects on the
// registry, for every block of that registry: the units of retirements whose cancellation it recorded as
// retired with that reference, every other unit held (a retirement still pending is held until the operator
// cancels it). Every difference is one line. A project whose registry holding is smaller than what Canopy
// counts as held (and so may still promise: sell, book, retire) stops selling at once; the operator resumes
// it once resolved (registry:resume). Nothing is taken back from anyone: credits already paid for stay.

/** One row of a registry account's export, as the export reader (registry/export-csv.ts) gives it. */
export interface ExportRow {
  serial_range: string;
  quantity: number;
  status: 'held' | 'retired';
  reference?: string;
  date?: string;
}

interface Span {
  first: number;
  last: number;
}

/** `a` minus `b`: both sorted, non-overlapping within themselves. */
function subtract(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of a) {
    let next = s.first;
    for (const t of b) {
      if (t.last < next || t.first > s.last) continue;
      if (t.first > next) out.push({ first: next, last: t.first - 1 });
      next = Math.max(next, t.last + 1);
    }
    if (next <= s.last) out.push({ first: next, last: s.last });
  }
  return out;
}

function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of a) for (const t of b) if (t.first <= s.last && t.last >= s.first) out.push({ first: Math.max(s.first, t.first), last: Math.min(s.last, t.last) });
  return out.sort((x, y) => x.first - y.first);
}

const units = (spans: readonly Span[]) => spans.reduce((n, s) => n + s.last - s.first + 1, 0);
const byFirst = (x: Span, y: Span) => x.first - y.first;

export type DifferenceKind = 'not_held' | 'cancellation_not_recorded' | 'reference_differs' | 'not_cancelled' | 'not_counted' | 'unreadable';

/** One difference between Canopy and the registry, line by line. */
export interface Difference {
  kind: DifferenceKind;
  project_id: number | null;
  /** The units concerned, as the registry writes them (or the export's text when unreadable). */
  serials: string;
  units: number;
  certificate_id?: string;
  canopy_reference?: string;
  registry_reference?: string;
  text: string;
}

export interface ProjectHolding {
  project_id: number;
  /** Units Canopy counts as held on the registry (its blocks less the cancellations it recorded). */
  canopy_held: number;
  /** Of those, the units the registry holds (or has cancelled for a retirement still pending in Canopy). */
  registry_held: number;
  paused: boolean;
}

export interface Reconciliation {
  registry: string;
  rows: number;
  differences: Difference[];
  projects: ProjectHolding[];
  dry_run: boolean;
}

interface RegistrySide {
  held: Span[];
  retired: Array<Span & { reference: string; date: string }>;
}

/** Compares an export with Canopy's blocks of that registry; without dryRun, pauses the projects whose
 *  registry holding is smaller than what Canopy counts, in one write transaction with their live events. */
export async function reconcile(db: DB, registry: RegistryName, rows: readonly ExportRow[], dryRun: boolean, now: number): Promise<Reconciliation> {
  const differences: Difference[] = [];
  const sides = new Map<string, RegistrySide>();
  const writerOf = new Map<string, SerialRange>();
  for (const row of rows) {
    const parsed = parseSerialRange(row.serial_range, registry, { quantity: row.quantity });
    if (!parsed.ok) {
      differences.push({ kind: 'unreadable', project_id: null, serials: row.serial_range, units: row.quantity, text: `the export's line cannot be read: ${parsed.message}` });
      continue;
    }
    const key = seriesKey(parsed.range);
    writerOf.set(key, parsed.range);
    let side = sides.get(key);
    if (!side) sides.set(key, (side = { held: [], retired: [] }));
    const span = { first: Number(parsed.range.first), last: Number(parsed.range.last) };
    if (row.status === 'held') side.held.push(span);
    else side.retired.push({ ...span, reference: row.reference ?? '', date: row.date ?? '' });
  }
  for (const s of sides.values()) {
    s.held.sort(byFirst);
    s.retired.sort(byFirst);
  }

  const blocks = await db.selectFrom('registry_blocks').select(['id', 'project_id', 'registry', 'serial_range', 'first_unit', 'last_unit']).orderBy('project_id').orderBy('id').execute();
  const mine = blocks.filter((b) => b.registry === registry);
  const taken = mine.length
    ? await db
        .selectFrom('retirement_units as u')
        .innerJoin('registry_cancellations as c', 'c.retirement_id', 'u.retirement_id')
        .select(['u.block_id', 'u.retirement_id', 'u.first_unit', 'u.last_unit', 'c.reference', 'c.cancelled_on'])
        .where(
          'u.block_id',
          'in',
          mine.map((b) => b.id),
        )
        .orderBy('u.first_unit')
        .execute()
    : [];

  const holdings = new Map<number, ProjectHolding>();
  const counted = new Map<string, Span[]>();
  for (const b of mine) {
    const parsed = parseSerialRange(b.serial_range, registry);
    if (!parsed.ok) continue; // a stored block was parsed when it was added
    const key = seriesKey(parsed.range);
    writerOf.set(key, parsed.range);
    const write = (s: Span) => formatSerialRange(parsed.range, s.first, s.last);
    const side = sides.get(key) ?? { held: [], retired: [] };
    const whole = [{ first: Number(b.first_unit), last: Number(b.last_unit) }];
    counted.set(key, [...(counted.get(key) ?? []), ...whole].sort(byFirst));
    const ofBlock = taken.filter((t) => t.block_id === b.id).map((t) => ({ first: Number(t.first_unit), last: Number(t.last_unit), id: t.retirement_id, reference: t.reference, on: t.cancelled_on }));
    const recorded = ofBlock.filter((t) => t.reference !== null);
    const pending = ofBlock.filter((t) => t.reference === null);
    const expectHeld = subtract(whole, recorded);
    const missing = subtract(expectHeld, side.held);
    let gone = 0; // units not held that a pending retirement explains: cancelled on the registry, not yet recorded
    for (const p of pending) {
      const cancelled = intersect(intersect(missing, [p]), side.retired);
      if (units(cancelled) === 0) continue;
      gone += units(cancelled);
      const refs = [...new Set(side.retired.filter((r) => intersect([r], cancelled).length > 0).map((r) => r.reference))].join(', ');
      for (const c of cancelled)
        differences.push({ kind: 'cancellation_not_recorded', project_id: b.project_id, serials: write(c), units: units([c]), certificate_id: p.id, registry_reference: refs, text: `units cancelled on the registry (reference ${refs || 'none'}) that Canopy has not recorded: certificate ${p.id}` });
    }
    const explained = pending.flatMap((p) => intersect(intersect(missing, [p]), side.retired));
    for (const m of subtract(missing, explained.sort(byFirst))) {
      differences.push({ kind: 'not_held', project_id: b.project_id, serials: write(m), units: units([m]), text: `block #${b.id}: Canopy counts these units as held; the registry does not hold them` });
    }
    for (const r of recorded) {
      const onRegistry = side.retired.filter((x) => intersect([x], [r]).length > 0);
      const covered = intersect([r], onRegistry.sort(byFirst));
      for (const x of onRegistry) {
        if (x.reference === r.reference) continue;
        const part = intersect([x], [r])[0]!;
        differences.push({ kind: 'reference_differs', project_id: b.project_id, serials: write(part), units: units([part]), certificate_id: r.id, canopy_reference: r.reference ?? '', registry_reference: x.reference, text: `certificate ${r.id}: Canopy recorded reference ${r.reference}, the registry says ${x.reference || '(none)'}` });
      }
      for (const u of subtract([r], covered)) {
        differences.push({ kind: 'not_cancelled', project_id: b.project_id, serials: write(u), units: units([u]), certificate_id: r.id, canopy_reference: r.reference ?? '', text: `certificate ${r.id}: Canopy recorded these units as cancelled (reference ${r.reference}); the registry does not show them retired` });
      }
    }
    const h = holdings.get(b.project_id) ?? { project_id: b.project_id, canopy_held: 0, registry_held: 0, paused: false };
    h.canopy_held += units(expectHeld);
    h.registry_held += units(expectHeld) - units(missing) + gone;
    holdings.set(b.project_id, h);
  }
  // Units the registry account holds that no block of Canopy counts: not a risk to buyers, but a difference.
  for (const [key, side] of sides) {
    const writer = writerOf.get(key)!;
    for (const u of subtract(side.held, counted.get(key) ?? [])) {
      // Written with the series' own format; the units may span several of the export's rows.
      const serials = formatSerialRange({ ...writer, first: Math.min(writer.first, u.first), last: Math.max(writer.last, u.last) }, u.first, u.last);
      differences.push({ kind: 'not_counted', project_id: null, serials, units: units([u]), text: 'held on the registry; no block of Canopy counts these units' });
    }
  }
  const short = [...holdings.values()].filter((h) => h.registry_held < h.canopy_held);
  for (const h of short) h.paused = true;
  if (!dryRun && short.length > 0) await pauseSales(db, short, differences, now);
  return { registry, rows: rows.length, differences, projects: [...holdings.values()], dry_run: dryRun };
}

/** Stops the sales of these projects (their buy and booking refuse project_sales_paused), with what was
 *  found, and tells every open app and the response cache. A project paused already keeps its first time. */
async function pauseSales(db: DB, projects: readonly ProjectHolding[], differences: readonly Difference[], now: number): Promise<void> {
  await writeTx(db, async (tx, w) => {
    for (const h of projects) {
      const lines = differences.filter((d) => d.project_id === h.project_id).map((d) => `${d.kind} ${d.serials}`);
      const note = `registry holds ${h.registry_held} of the ${h.canopy_held} units Canopy counts: ${lines.join('; ')}`.slice(0, 2000);
      await tx.updateTable('projects').set({ sales_paused_at: now, sales_paused_note: note, updated_at: now }).where('id', '=', h.project_id).where('sales_paused_at', 'is', null).execute();
    }
    await publish(
      w,
      {
        type: 'invalidate',
        tables: ['projects'],
        ids: projects.map((h) => h.project_id),
      },
      null,
      now,
    );
  });
}

/** Lets a paused project sell again (registry:resume): answers what it was paused for, or null when it was
 *  not paused. */
export async function resumeSales(db: DB, projectId: number, now: number): Promise<{ paused_at: number; note: string } | null> {
  return writeTx(db, async (tx, w) => {
    const p = await tx.selectFrom('projects').select(['sales_paused_at', 'sales_paused_note']).where('id', '=', projectId).executeTakeFirst();
    if (!p || p.sales_paused_at === null) return null;
    await tx.updateTable('projects').set({ sales_paused_at: null, sales_paused_note: '', updated_at: now }).where('id', '=', projectId).execute();
    await publish(w, { type: 'invalidate', tables: ['projects'], ids: [projectId] }, null, now);
    return { paused_at: Number(p.sales_paused_at), note: p.sales_paused_note };
  });
}
