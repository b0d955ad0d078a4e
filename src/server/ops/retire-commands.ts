import { serialRangesOf } from '../modules/retire/service';
import type { Command } from './commands';
import { idFlag, limitFlag } from './args';
import { terminalValue } from '../lib/terminal';

// Operator commands of retirement (docs/product.md#operators): retirement:list.
export const RETIRE_COMMANDS: Record<string, Command> = {
  'retirement:list': {
    usage: 'retirement:list [--project ID] [--user ID] [--limit N]',
    flags: ['project', 'user', 'limit'],
    summary: 'Retirements, newest first, with beneficiary, tons and serial ranges',
    async run({ db }, args) {
      let q = db
        .selectFrom('retirements as r')
        .innerJoin('projects as p', 'p.id', 'r.project_id')
        .select(['r.id', 'r.user_id', 'r.project_id', 'r.tons', 'r.beneficiary', 'r.reason', 'r.created_at', 'p.name', 'p.registry_id', 'p.vintage'])
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id');
      const project = idFlag(args, 'project');
      if (project !== undefined) q = q.where('r.project_id', '=', project);
      const user = idFlag(args, 'user');
      if (user !== undefined) q = q.where('r.user_id', '=', user);
      const rows = await q.limit(limitFlag(args, 50)).execute();
      const serials = await serialRangesOf(db, rows);
      const data = rows.map((r) => ({ ...r, serials: serials.get(r.id) ?? [] }));
      const text = data.length
        ? data
            .map((r) => `${r.id} ${new Date(r.created_at).toISOString()} user #${r.user_id} project #${r.project_id} ${r.tons} t for "${terminalValue(r.beneficiary)}": ${r.serials.map((s) => (s.from === s.to ? s.from : `${s.from}..${s.to}`)).join(', ')}`)
            .join('\n')
        : 'no retirements';
      return { data, text };
    },
  },
};
