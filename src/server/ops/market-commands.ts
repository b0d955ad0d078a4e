import { loadConfig } from '../config';
import { AllocationRefused, allocatePresale } from '../modules/order/transitions';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/schemas/order';
import { OpsError, UsageError, arg, positiveInt, type Command } from './commands';

// Operator commands of the marketplace (docs/product.md#operators): presale:allocate and order:list.
export const MARKET_COMMANDS: Record<string, Command> = {
  'presale:allocate': {
    usage: 'presale:allocate ID --price CENTS',
    flags: ['price'],
    summary: 'Allocate a pre-sale: final price, final tons per booking (pro rata when oversubscribed)',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const priceFlag = args.flags.price;
      if (typeof priceFlag !== 'string') throw new UsageError('missing --price CENTS');
      const price = positiveInt(priceFlag, '--price');
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
      if (typeof args.flags.project === 'string') q = q.where('project_id', '=', positiveInt(args.flags.project, '--project'));
      if (args.flags.status !== undefined) {
        const status = String(args.flags.status);
        if (!(ORDER_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${ORDER_STATUSES.join(', ')}`);
        q = q.where('status', '=', status as OrderStatus);
      }
      const limit = typeof args.flags.limit === 'string' ? positiveInt(args.flags.limit, '--limit') : 50;
      const rows = await q.limit(limit).execute();
      const text = rows.length
        ? rows.map((o) => `${o.order_no} #${o.id} user #${o.user_id} project #${o.project_id} ${o.kind} ${o.status} ${o.tons} t x ${o.unit_price} = ${o.total} cents`).join('\n')
        : 'no orders';
      return { data: rows, text };
    },
  },
};
