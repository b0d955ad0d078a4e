import type { DB } from '../../db/connection';
import type { RegistryBlocksTable } from '../../db/schema';
import { writeTx, type Tx } from '../../db/tx';
import type { Selectable } from 'kysely';
import type { RegistryExportRow } from './export-csv';
import { changeBlockTons } from './holdings';
import { creditsKey, formatSerialRange, isRegistryName, parseSerialRange, REGISTRY_NAMES, REGISTRY_TITLES, seriesKey, type RegistryName, type SerialRange } from './serials';

// The platform's registry holdings (docs/product.md#registry-inventory): blocks added by an operator, read
// from a registry account's export, or seeded as demo data. A block is written in the transaction that
// checks it: its project exists and names the same registry (and, where the project's registry ID has a
// number, the same registry project), its range reads as that registry writes ranges, its count agrees with
// what was stated, and no block of the same series already counts any of its units. The project's
// block_tons counter moves in the same transaction.

export type BlockRow = Selectable<RegistryBlocksTable>;

/** Blocks sit in this account unless the operator names another. */
export const DEFAULT_ACCOUNT = 'main';

/** A block refused: the field at fault (serial_range, registry, project, first, last, vintage, quantity,
 *  account) and why, in words for the operator. */
export class BlockRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface BlockInput {
  projectId: number;
  serialRange: string;
  account?: string | undefined;
  /** The quantity the operator or the export states: it must equal the count the range spans. */
  quantity?: number | undefined;
  /** The registry the operator or the export names: the range must be written as that registry writes. */
  registry?: RegistryName | undefined;
  source: BlockRow['source'];
  demo?: boolean;
}

/** The registry a project's `registry` text names ("Verra", "Gold Standard", ...), or null for none Canopy reads. */
export function registryOfProject(text: string): RegistryName | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (isRegistryName(t)) return t;
  const byTitle = REGISTRY_NAMES.find((n) => REGISTRY_TITLES[n].toLowerCase() === t);
  if (byTitle) return byTitle;
  const aliases: Record<string, RegistryName> = { vcs: 'verra', gs: 'gold_standard', 'gold standard': 'gold_standard', 'acr': 'acr', car: 'car', 'puro': 'puro', 'puro.earth': 'puro' };
  return aliases[t] ?? null;
}

/** The registry project a range names (Verra's, Gold Standard's, ACR's, CAR's project ID; Puro.earth's
 *  production facility), as digits to compare with the project's registry ID. */
function registryProjectDigits(range: SerialRange): string | null {
  const p = range.parts;
  const text = p.project ?? p.facility ?? null;
  if (text === null) return null;
  const digits = text.replace(/\D/g, '');
  return digits === '' ? null : digits.replace(/^0+/, '');
}

function account(text: string | undefined): string {
  const a = (text ?? DEFAULT_ACCOUNT).trim();
  if (a === '' || a.length > 100 || /[\p{Cc}]/u.test(a)) throw new BlockRefused('account', 'the account name must be 1 to 100 printable characters');
  return a;
}

/** The block a text would be, checked on its own (not against what is held): what `inventory:add` and an
 *  import's dry run show before writing. */
export function readBlock(input: Pick<BlockInput, 'serialRange' | 'quantity' | 'registry'>): SerialRange {
  const parsed = parseSerialRange(input.serialRange, input.registry, { ...(input.quantity !== undefined ? { quantity: input.quantity } : {}) });
  if (!parsed.ok) throw new BlockRefused(parsed.field, parsed.message);
  return parsed.range;
}

/** The block already held that counts any of `range`'s units: one of the same registry whose units
 *  intersect and whose fixed parts name the same credits (creditsKey), so the same units written with
 *  other padding or without Verra's optional scope are found as well as the same text. */
async function overlapping(tx: Tx | DB, range: SerialRange): Promise<BlockRow | undefined> {
  const near = await tx
    .selectFrom('registry_blocks')
    .selectAll()
    .where('registry', '=', range.registry)
    .where('first_unit', '<=', range.last)
    .where('last_unit', '>=', range.first)
    .orderBy('first_unit')
    .execute();
  const key = creditsKey(range);
  return near.find((b) => {
    const held = parseSerialRange(b.serial_range, b.registry as RegistryName);
    return held.ok ? creditsKey(held.range) === key : b.series === seriesKey(range);
  });
}

/** Checks a block against its project and what is held, and writes it: inside the caller's write
 *  transaction (an import writes all its rows in one). */
export async function addBlockIn(tx: Tx, input: BlockInput, now: number): Promise<BlockRow> {
  const range = readBlock(input);
  const acct = account(input.account);
  const p = await tx.selectFrom('projects').select(['id', 'name', 'registry', 'registry_id']).where('id', '=', input.projectId).executeTakeFirst();
  if (!p) throw new BlockRefused('project', `no project #${input.projectId}`);
  const named = registryOfProject(p.registry);
  if (p.registry.trim() !== '' && named === null) throw new BlockRefused('registry', `project #${p.id} is listed on "${p.registry}", a registry Canopy does not read serials of`);
  if (named !== null && named !== range.registry) {
    throw new BlockRefused('registry', `project #${p.id} is listed on ${REGISTRY_TITLES[named]}; this range is written as ${REGISTRY_TITLES[range.registry]} writes serials`);
  }
  const own = p.registry_id.replace(/\D/g, '').replace(/^0+/, '');
  const theirs = registryProjectDigits(range);
  if (own !== '' && theirs !== null && own !== theirs) {
    throw new BlockRefused('project', `the range is of ${REGISTRY_TITLES[range.registry]} project ${theirs}; project #${p.id} is ${p.registry_id}`);
  }
  const clash = await overlapping(tx, range);
  if (clash) {
    throw new BlockRefused(
      'serial_range',
      `units ${Math.max(clash.first_unit, range.first)} to ${Math.min(clash.last_unit, range.last)} are already held in block #${clash.id} (${clash.serial_range}, project #${clash.project_id})`,
    );
  }
  const row = await tx
    .insertInto('registry_blocks')
    .values({
      project_id: p.id,
      registry: range.registry,
      // As the registry writes it (spaces squeezed), so a search of its records finds it.
      serial_range: formatSerialRange(range, range.first, range.last),
      series: seriesKey(range),
      first_unit: range.first,
      last_unit: range.last,
      quantity: range.quantity,
      vintage: range.vintage,
      account: acct,
      source: input.source,
      demo: input.demo ? 1 : 0,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await changeBlockTons(tx, p.id, range.quantity, now);
  return row;
}

/** One block in its own write transaction (`inventory:add`). */
export function addBlock(db: DB, input: BlockInput, now: number): Promise<BlockRow> {
  return writeTx(db, (tx) => addBlockIn(tx, input, now));
}

/** Blocks, a project's or all, by project then registry order of units. */
export function listBlocks(db: DB, projectId?: number): Promise<BlockRow[]> {
  let q = db.selectFrom('registry_blocks').selectAll().orderBy('project_id').orderBy('series').orderBy('first_unit');
  if (projectId !== undefined) q = q.where('project_id', '=', projectId);
  return q.execute();
}

/** What an import does with one row of a registry account's export. */
export interface ImportOutcome {
  line: number;
  serial_range: string;
  quantity: number;
  /** add: a new block (written with --apply); held: this very block is held already (nothing to do);
   *  retired: the export says the units left the account (reconciliation's, not inventory's); refused. */
  outcome: 'add' | 'held' | 'retired' | 'refused';
  project_id?: number;
  block_id?: number;
  field?: string;
  message?: string;
}

export interface ImportOptions {
  registry: RegistryName;
  /** Every row is a block of this project (otherwise each row's registry project names it). */
  projectId?: number | undefined;
  account?: string | undefined;
  /** false: a dry run, the same checks in a transaction rolled back. */
  apply: boolean;
  now: number;
}

class DryRun extends Error {
  constructor(readonly outcomes: ImportOutcome[]) {
    super('dry run');
  }
}

/** The projects of `registry` by the number of their registry ID, for rows that do not name a project. */
async function projectsByRegistryNumber(tx: Tx, registry: RegistryName): Promise<Map<string, number[]>> {
  const rows = await tx.selectFrom('projects').select(['id', 'registry', 'registry_id']).execute();
  const out = new Map<string, number[]>();
  for (const r of rows) {
    if (registryOfProject(r.registry) !== registry) continue;
    const digits = r.registry_id.replace(/\D/g, '').replace(/^0+/, '');
    if (digits === '') continue;
    out.set(digits, [...(out.get(digits) ?? []), r.id]);
  }
  return out;
}

/**
 * Reads the held rows of an export as blocks (inventory:import): each row checked as `inventory:add` checks
 * one, against what is held and against the rows before it, in one write transaction that commits only with
 * `apply` (a dry run answers exactly what the import would do). A row refused is reported, not written; the
 * others are.
 */
export async function importBlocks(db: DB, rows: readonly Pick<RegistryExportRow, 'line' | 'serial_range' | 'quantity' | 'status'>[], o: ImportOptions): Promise<ImportOutcome[]> {
  const run = async (tx: Tx): Promise<ImportOutcome[]> => {
    const byNumber = o.projectId === undefined ? await projectsByRegistryNumber(tx, o.registry) : null;
    const outcomes: ImportOutcome[] = [];
    for (const row of rows) {
      const base = { line: row.line, serial_range: row.serial_range, quantity: row.quantity };
      if (row.status === 'retired') {
        outcomes.push({ ...base, outcome: 'retired', message: 'retired or cancelled on the registry: not a holding' });
        continue;
      }
      try {
        const range = readBlock({ serialRange: row.serial_range, quantity: row.quantity, registry: o.registry });
        let projectId = o.projectId;
        if (projectId === undefined) {
          const number = registryProjectDigits(range);
          const ids = number === null ? [] : (byNumber!.get(number) ?? []);
          if (ids.length !== 1) {
            throw new BlockRefused('project', ids.length === 0 ? `no project of ${REGISTRY_TITLES[o.registry]} has registry ID number ${number ?? '(none in the range)'}; name it with --project` : `projects ${ids.map((i) => `#${i}`).join(', ')} share registry ID number ${number}; name one with --project`);
          }
          projectId = ids[0]!;
        }
        const same = await tx
          .selectFrom('registry_blocks')
          .select(['id', 'project_id'])
          .where('series', '=', seriesKey(range))
          .where('first_unit', '=', range.first)
          .where('last_unit', '=', range.last)
          .executeTakeFirst();
        if (same) {
          outcomes.push({ ...base, outcome: 'held', project_id: same.project_id, block_id: same.id });
          continue;
        }
        const block = await addBlockIn(tx, { projectId, serialRange: row.serial_range, quantity: row.quantity, registry: o.registry, account: o.account, source: 'import' }, o.now);
        outcomes.push({ ...base, outcome: 'add', project_id: projectId, ...(o.apply ? { block_id: block.id } : {}) });
      } catch (err) {
        if (!(err instanceof BlockRefused)) throw err;
        outcomes.push({ ...base, outcome: 'refused', field: err.field, message: err.message });
      }
    }
    if (!o.apply) throw new DryRun(outcomes);
    return outcomes;
  };
  try {
    return await writeTx(db, (tx) => run(tx));
  } catch (err) {
    if (err instanceof DryRun) return err.outcomes;
    throw err;
  }
}
