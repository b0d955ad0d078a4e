import fs from 'node:fs';
import path from 'node:path';
import { heldTons, promisedTons, forSaleTons } from '../modules/registry/holdings';
import { addBlock, BlockRefused, importBlocks, listBlocks, type BlockRow, type ImportOutcome } from '../modules/registry/inventory';
import { parseRegistryExport, RegistryExportError } from '../modules/registry/export-csv';
import { isRegistryName, REGISTRY_NAMES } from '../modules/registry/serials';
import { publish } from '../live/events';
import { OpsError, type Command } from './commands';
import { arg, idFlag, positiveInt, switchFlag, textFlag, UsageError, type Parsed } from './args';
import { terminalValue } from '../lib/terminal';

// Operator commands of the registry inventory (docs/product.md#registry-inventory, docs/operations.md#registry-inventory):
// the blocks of registry units the platform holds, added one by one, listed, or read from a registry
// account's CSV export (a dry run unless --apply).

function registryFlag(args: Parsed, required: boolean) {
  const text = textFlag(args, 'registry');
  if (text === undefined) {
    if (required) throw new UsageError(`--registry is required (one of ${REGISTRY_NAMES.join(', ')})`);
    return undefined;
  }
  if (!isRegistryName(text)) throw new UsageError(`--registry must be one of ${REGISTRY_NAMES.join(', ')}, got "${text}"`);
  return text;
}

function blockOut(b: BlockRow) {
  return { id: b.id, registry: b.registry, project_id: b.project_id, serial_range: b.serial_range, first_unit: b.first_unit, last_unit: b.last_unit, quantity: b.quantity, vintage: b.vintage, account: b.account, source: b.source, demo: b.demo === 1 };
}

function refused(err: BlockRefused): OpsError {
  return Object.assign(new OpsError(`refused (${err.field}): ${err.message}; nothing was added`), { data: { field: err.field, message: err.message } });
}

function outcomeText(o: ImportOutcome): string {
  const where = o.project_id !== undefined ? ` project #${o.project_id}` : '';
  const what = {
    add: `add${where}${o.block_id !== undefined ? ` (block #${o.block_id})` : ''}`,
    held: `already held${where} (block #${o.block_id})`,
    retired: 'retired on the registry: not a holding',
    refused: `REFUSED (${o.field}): ${o.message ?? ''}`,
  }[o.outcome];
  return `  line ${o.line}: ${terminalValue(o.serial_range)} ${o.quantity} t: ${terminalValue(what)}`;
}

export const INVENTORY_COMMANDS: Record<string, Command> = {
  'inventory:add': {
    usage: 'inventory:add PROJECT_ID "SERIAL RANGE" [--account NAME] [--quantity N] [--registry NAME]',
    flags: ['account', 'quantity', 'registry'],
    summary: 'Add a block of registry units the platform holds for a project, its range as the registry writes it',
    async run({ db, clock }, args) {
      const projectId = positiveInt(arg(args, 0, 'PROJECT_ID'), 'PROJECT_ID');
      const serialRange = arg(args, 1, 'SERIAL RANGE');
      const quantity = idFlag(args, 'quantity');
      const now = clock.now();
      let block: BlockRow;
      try {
        block = await addBlock(db, { projectId, serialRange, account: textFlag(args, 'account'), quantity, registry: registryFlag(args, false), source: 'add' }, now);
      } catch (err) {
        if (err instanceof BlockRefused) throw refused(err);
        throw err;
      }
      // Its tons for sale may have changed: open apps read the project again.
      await publish(db, { type: 'invalidate', tables: ['projects'], ids: [projectId] }, null, now);
      const data = blockOut(block);
      return {
        data,
        text: `block #${block.id}: ${block.quantity} units (${block.first_unit} to ${block.last_unit}) of ${block.registry} held for project #${projectId} in account "${terminalValue(block.account)}"`,
        audit: { target: `registry_block:${block.id}`, before: null, after: data },
      };
    },
  },
  'inventory:list': {
    usage: 'inventory:list [PROJECT_ID] [--json]',
    summary: 'Registry blocks held, per project, with what each project holds, has promised and can sell',
    async run({ db }, args) {
      const text = args.positionals[0];
      const projectId = text === undefined ? undefined : positiveInt(text, 'PROJECT_ID');
      const blocks = (await listBlocks(db, projectId)).map(blockOut);
      let q = db.selectFrom('projects').select(['id', 'name', 'status', 'total_tons', 'remaining_tons', 'block_tons', 'cancelled_tons']).orderBy('id');
      q = projectId === undefined ? q.where('id', 'in', [...new Set(blocks.map((b) => b.project_id)), 0]) : q.where('id', '=', projectId);
      const projects = (await q.execute()).map((p) => ({ project_id: p.id, name: p.name, held: heldTons(p), promised: promisedTons(p), for_sale: forSaleTons(p) }));
      if (projectId !== undefined && projects.length === 0) throw new OpsError(`no project #${projectId}`);
      const lines = projects.flatMap((p) => [
        `project #${p.project_id} ${terminalValue(p.name)}: holds ${p.held} t, promised ${p.promised} t, for sale ${p.for_sale} t`,
        ...blocks.filter((b) => b.project_id === p.project_id).map((b) => `  #${b.id} ${b.registry} ${terminalValue(b.serial_range)} ${b.quantity} t in "${terminalValue(b.account)}"${b.demo ? ' (demo)' : ''}`),
      ]);
      // --json answers the blocks; the text adds each project's figures above its blocks.
      return { data: blocks, text: lines.length ? lines.join('\n') : 'no registry blocks held' };
    },
  },
  'inventory:import': {
    usage: `inventory:import FILE --registry ${REGISTRY_NAMES.join('|')} [--project ID] [--account NAME] [--apply]`,
    flags: ['registry', 'project', 'account', 'apply'],
    switches: ['apply'],
    summary: "Read a registry account's CSV export as blocks: shows what it would add or refuse; --apply writes it",
    async run({ db, clock }, args) {
      const file = arg(args, 0, 'FILE');
      const registry = registryFlag(args, true)!;
      const apply = switchFlag(args, 'apply');
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        throw new UsageError(`cannot read file ${file}`);
      }
      let rows;
      try {
        rows = parseRegistryExport(text);
      } catch (err) {
        if (err instanceof RegistryExportError) throw new OpsError(`${path.basename(file)}: ${err.message}; nothing was imported`);
        throw err;
      }
      const now = clock.now();
      const outcomes = await importBlocks(db, rows, { registry, projectId: idFlag(args, 'project'), account: textFlag(args, 'account'), apply, now });
      const count = (k: ImportOutcome['outcome']) => outcomes.filter((o) => o.outcome === k).length;
      const added = outcomes.filter((o) => o.outcome === 'add');
      if (apply && added.length > 0) {
        await publish(db, { type: 'invalidate', tables: ['projects'], ids: [...new Set(added.map((o) => o.project_id!))] }, null, now);
      }
      const head = `${apply ? '' : 'DRY RUN (nothing written; --apply to write): '}${path.basename(file)} (${registry}): ${outcomes.length} row${outcomes.length === 1 ? '' : 's'}; ${apply ? 'added' : 'would add'} ${count('add')} (${added.reduce((n, o) => n + o.quantity, 0)} t), already held ${count('held')}, retired ${count('retired')}, refused ${count('refused')}`;
      return {
        data: { apply, registry, outcomes },
        text: [head, ...outcomes.map(outcomeText)].join('\n'),
        ...(apply && added.length > 0 ? { audit: { target: `registry_import:${path.basename(file)}`, before: null, after: added } } : {}),
      };
    },
  },
};
