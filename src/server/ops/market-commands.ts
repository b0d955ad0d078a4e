import { loadConfig } from '../config';
import { AllocationRefused, allocatePresale } from '../modules/order/transitions';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/schemas/order';
import { OpsError, type Command } from './commands';
import { arg, choiceFlag, idFlag, limitFlag, positiveInt, UsageError } from './args';

// Operator commands of the marketplace (docs/product.md#operators): presale:allocate and order:list.
export const MARKET_COMMANDS: Record<string, Command> = {
  'presale:allocate': {
    usage: 'presale:allocate ID --price CENTS',
    flags: ['price'],
    summary: 'Allocate a pre-sale: final price, final tons per booking (pro rata when oversubscribed)',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const price = idFlag(args, 'price');
      if (price === undefined) throw new UsageError('missing --price CENTS');
      const payHours = loadConfig().PRESALE_PAY_HOURS;
      try {
        const result = await allocatePresale(db, id, price, clock.now(), payHours);
        const lines = result.orders.map((o) => `  ${o.order_no} user #${o.user_id}: booked ${o.booked} t -> ${o.final_tons} t, final payment ${o.final_amount} cents (${o.status})`);
        return {
          data: result,
          text: `project #${id}: ${result.booked} t booked against ${result.supply} t${result.oversubscribed ? ' (oversubscribed, pro rata)' : ''}; allocated ${result.allocated} t at ${price} cents/t; pay by ${new Date(result.final_deadline).toISOString()}\n${lines.join('\n')}`,
        };
      } catch (err) {
        if (err instanceof AllocationRefused) throw new OpsError(err.message);
        throw err;
      }
    },
  },
  'order:list': {
    usage: `order:list [--project ID] [--status ${ORDER_STATUSES.join('|')}] [--limit N]`,
    flags: ['project', 'status', 'limit'],
    summary: 'Orders, newest first',
    async run({ db }, args) {
      let q = db.selectFrom('orders').selectAll().orderBy('id', 'desc');
      const project = idFlag(args, 'project');
      if (project !== undefined) q = q.where('project_id', '=', project);
      const status = choiceFlag<OrderStatus>(args, 'status', ORDER_STATUSES);
      if (status) q = q.where('status', '=', status);
      const rows = await q.limit(limitFlag(args, 50)).execute();
      const text = rows.length
        ? rows.map((o) => `${o.order_no} #${o.id} user #${o.user_id} project #${o.project_id} ${o.kind} ${o.status} ${o.tons} t x ${o.unit_price} = ${o.total} cents`).join('\n')
        : 'no orders';
      return { data: rows, text };
    },
  },
};
