import fs from 'node:fs';
import { sgtDay } from '../lib/clock';
import { terminalValue } from '../lib/terminal';
import { pendingCancellations, recordCancellation } from '../modules/retire/cancellation';
import { reconcile, resumeSales, type ExportRow } from '../modules/retire/reconcile';
import { parseRegistryExport, RegistryExportError } from '../modules/registry/export-csv';
import { isRegistryName, REGISTRY_NAMES } from '../modules/registry/serials';
import { CERTIFICATE_ID } from '../../shared/schemas/retire';
import { arg, positiveInt, switchFlag, textFlag, UsageError } from './args';
import { OpsError, type Command } from './commands';

// Operator commands of registry cancellation (docs/product.md#registry-cancellation): what waits to be
// cancelled on its registry, recording the registry's cancellation, reconciling with a registry account's
// export, and letting a project paused by a reconciliation sell again.

/** A registry reference as typed: printable, no spaces at either end, at most 200 characters. */
function referenceOf(text: string | undefined): string {
  const ref = text?.trim();
  if (!ref) throw new UsageError('missing --reference REF (the registry\'s own retirement reference)');
  if (ref.length > 200 || /[\p{Cc}\p{Cf}]/u.test(ref)) throw new UsageError('--reference must be at most 200 printable characters');
  return ref;
}

/** --date YYYY-MM-DD, a real calendar day not after today (SGT); today when absent. */
function dateOf(text: string | undefined, now: number): string {
  const today = sgtDay(now).date;
  if (text === undefined) return today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text) throw new UsageError(`--date must be a day as YYYY-MM-DD, got "${text}"`);
  if (text > today) throw new UsageError(`--date ${text} is after today (${today} SGT)`);
  return text;
}

export const REGISTRY_CANCEL_COMMANDS: Record<string, Command> = {
  'registry:pending': {
    usage: 'registry:pending [--json]',
    summary: 'Retirements waiting to be cancelled on their registry, oldest first, with certificate id, serials and due date',
    async run({ db, clock }) {
      const list = await pendingCancellations(db, clock.now());
      const text = list.length
        ? list
            .map((p) => `${p.certificate_id} due ${p.due_on}${p.overdue ? ' OVERDUE' : ''} ${p.registry} project #${p.project_id} ${p.tons} t for "${terminalValue(p.beneficiary)}": ${p.registry_serials.join(', ') || '(no registry units: a project without blocks)'}`)
            .join('\n')
        : 'nothing waits to be cancelled';
      return { data: list, text };
    },
  },
  'registry:cancel': {
    usage: 'registry:cancel CERTIFICATE_ID --reference REF [--date YYYY-MM-DD]',
    flags: ['reference', 'date'],
    summary: "Record the registry's cancellation of a retirement's units: its reference, once",
    async run({ db, clock }, args) {
      const id = arg(args, 0, 'CERTIFICATE_ID');
      if (!CERTIFICATE_ID.test(id)) throw new UsageError(`not a certificate id: "${id}"`);
      const reference = referenceOf(textFlag(args, 'reference'));
      const now = clock.now();
      const on = dateOf(textFlag(args, 'date'), now);
      const r = await recordCancellation(db, id, reference, on, now);
      if (r.state === 'unknown') throw new OpsError(`no retirement with certificate id ${id}`);
      if (r.state === 'other_reference') throw new OpsError(`certificate ${id} is already recorded as cancelled on ${r.cancelled_on} with reference ${r.reference}; a registry cancels units once`);
      const data = { certificate_id: id, reference: r.reference, cancelled_on: r.cancelled_on, changed: r.state === 'recorded' };
      if (r.state === 'unchanged') return { data, text: `certificate ${id} was already recorded with reference ${reference} (cancelled on ${r.cancelled_on}): nothing changed` };
      return { data, text: `certificate ${id}: cancelled on the registry on ${on}, reference ${reference}`, audit: { target: `retirement:${id}`, before: r.before, after: { reference, cancelled_on: on } } };
    },
  },
  'registry:reconcile': {
    usage: 'registry:reconcile FILE --registry NAME [--dry-run]',
    flags: ['registry', 'dry-run'],
    switches: ['dry-run'],
    summary: "Compare a registry account's export with Canopy's blocks and cancellations; pause projects the registry holds less of",
    async run({ db, clock }, args) {
      const file = arg(args, 0, 'FILE');
      const registry = textFlag(args, 'registry');
      if (!registry) throw new UsageError('missing --registry NAME');
      if (!isRegistryName(registry)) throw new UsageError(`--registry must be one of ${REGISTRY_NAMES.join(', ')}`);
      const dryRun = switchFlag(args, 'dry-run');
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        throw new UsageError(`cannot read ${file}`);
      }
      let rows: ExportRow[];
      try {
        rows = parseRegistryExport(text);
      } catch (err) {
        if (err instanceof RegistryExportError) throw new OpsError(`${file}: ${err.message}`);
        throw err;
      }
      const r = await reconcile(db, registry, rows, dryRun, clock.now());
      const head = `${dryRun ? 'DRY RUN (nothing written): ' : ''}${registry} export, ${r.rows} row(s): ${r.differences.length ? `${r.differences.length} difference(s)` : 'no differences'}`;
      const lines = r.differences.map((d) => `  ${d.kind}${d.project_id === null ? '' : ` project #${d.project_id}`} ${d.serials} (${d.units} unit${d.units === 1 ? '' : 's'}): ${terminalValue(d.text)}`);
      const paused = r.projects.filter((p) => p.paused).map((p) => `  project #${p.project_id}: the registry holds ${p.registry_held} of the ${p.canopy_held} units Canopy counts: ${dryRun ? 'would pause its sales' : 'sales paused (registry:resume PROJECT_ID once resolved)'}`);
      const changed = !dryRun && paused.length > 0;
      return { data: r, text: [head, ...lines, ...paused].join('\n'), ...(changed ? { audit: { target: `registry:${registry}`, before: null, after: { paused: r.projects.filter((p) => p.paused).map((p) => p.project_id) } } } : {}) };
    },
  },
  'registry:resume': {
    usage: 'registry:resume PROJECT_ID',
    summary: 'Let a project paused by a registry reconciliation sell again, once the difference is resolved',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'PROJECT_ID'), 'PROJECT_ID');
      const was = await resumeSales(db, id, clock.now());
      if (!was) throw new OpsError(`project #${id} is not paused`);
      return { data: { project_id: id, resumed: true, was }, text: `project #${id} sells again (it was paused: ${terminalValue(was.note)})`, audit: { target: `project:${id}`, before: { sales_paused_at: was.paused_at, note: was.note }, after: { sales_paused_at: null } } };
    },
  },
};
