import { serialOf } from '../modules/retire/service';
import { positiveInt, type Command } from './commands';
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
      if (typeof args.flags.project === 'string') q = q.where('r.project_id', '=', positiveInt(args.flags.project, '--project'));
      if (typeof args.flags.user === 'string') q = q.where('r.user_id', '=', positiveInt(args.flags.user, '--user'));
      const limit = typeof args.flags.limit === 'string' ? positiveInt(args.flags.limit, '--limit') : 50;
      const rows = await q.limit(limit).execute();
      const serials =
        rows.length === 0
          ? []
          : await db
              .selectFrom('retirement_serials')
              .select(['retirement_id', 'first_seq', 'last_seq'])
              .where(
                'retirement_id',
                'in',
                rows.map((r) => r.id),
              )
              .orderBy('first_seq')
              .execute();
      const data = rows.map((r) => ({
        ...r,
        serials: serials.filter((s) => s.retirement_id === r.id).map((s) => ({ from: serialOf(r, Number(s.first_seq)), to: serialOf(r, Number(s.last_seq)) })),
      }));
      const text = data.length
        ? data
            .map((r) => `${r.id} ${new Date(r.created_at).toISOString()} user #${r.user_id} project #${r.project_id} ${r.tons} t for "${terminalValue(r.beneficiary)}": ${r.serials.map((s) => (s.from === s.to ? s.from : `${s.from}..${s.to}`)).join(', ')}`)
            .join('\n')
        : 'no retirements';
      return { data, text };
    },
  },
};
