import type { Command } from './commands';
import { idFlag, limitFlag, textFlag, UsageError } from './args';
import { terminalValue } from '../lib/terminal';

// Operator command of monthly offsets (docs/product.md#monthly-offset): offset:list, to answer "why was
// nothing bought this month?" from the month's outcome the scheduler kept.
export const OFFSET_COMMANDS: Record<string, Command> = {
  'offset:list': {
    usage: 'offset:list [--user ID] [--month YYYY-MM] [--limit N]',
    flags: ['user', 'month', 'limit'],
    summary: "Monthly offset plans, newest first, with a month's outcome (the order, or the reason nothing was bought)",
    async run({ db }, args) {
      const month = textFlag(args, 'month');
      if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError('--month must be YYYY-MM');
      let q = db
        .selectFrom('offset_plans as o')
        .innerJoin('projects as p', 'p.id', 'o.project_id')
        .leftJoin('offset_runs as r', (j) =>
          month === undefined
            ? j.onRef('r.plan_id', '=', 'o.id').on('r.month', '=', (eb) => eb.selectFrom('offset_runs as r2').select((e) => e.fn.max('r2.month').as('m')).whereRef('r2.plan_id', '=', 'o.id'))
            : j.onRef('r.plan_id', '=', 'o.id').on('r.month', '=', month),
        )
        .select(['o.id', 'o.user_id', 'o.project_id', 'p.name as project_name', 'o.tons', 'o.day', 'o.status', 'o.next_run_at', 'o.consent_at', 'r.month', 'r.outcome', 'r.order_id', 'r.reason'])
        .orderBy('o.id', 'desc');
      const user = idFlag(args, 'user');
      if (user !== undefined) q = q.where('o.user_id', '=', user);
      const data = await q.limit(limitFlag(args, 50)).execute();
      const text = data.length
        ? data
            .map((r) => {
              const outcome = r.month ? `${r.month} ${r.outcome}${r.order_id ? ` order #${r.order_id}` : ''}${r.reason ? ` (${r.reason})` : ''}` : 'no month run yet';
              const next = r.next_run_at === null ? 'no next buy' : `next ${new Date(r.next_run_at).toISOString()}`;
              return `#${r.id} user #${r.user_id} ${r.tons} t of "${terminalValue(r.project_name)}" on day ${r.day}, ${r.status}, ${next}; ${outcome}`;
            })
            .join('\n')
        : 'no monthly offset plans';
      return { data, text };
    },
  },
};
