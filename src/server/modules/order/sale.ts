import type { EffectRecord } from '../../db/tx';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { PLATFORM, postAhead } from '../../ledger/ledger';
import type { Order } from '../../../shared/schemas/order';
import type { User } from '../session';
import { checkThenVerify } from '../user/trade-password';
import { settlementTime } from './calc';
import { checkSale } from './checks';
import { freshUser, saleFacts } from './facts';
import { invalidateOrder, loadOrder, takeHolding } from './repo';
import type { OrderInput } from './purchase';
import { insertOrder, orderTx } from './writes';

// Sell credits back to the platform (docs/product.md#selling-back): read the project and the seller's
// holdings, check them (checks.ts), take the holdings, write the sell order and post the proceeds to
// "unavailable" until they settle (docs/product.md#settlement).

export async function placeSale(deps: Deps, user: User, input: OrderInput, record?: EffectRecord): Promise<Order> {
  const { db, clock, config } = deps;
  const recheck = async () => void checkSale(await saleFacts(db, user.id, input.project_id), user, input.tons, config);
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_credits', async (tx, w) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { p, price, proceeds, fromPurchase, fromPresale } = checkSale(await saleFacts(tx, u.id, input.project_id), u, input.tons, config);
    if (!(await takeHolding(tx, u.id, p.id, 'purchase', fromPurchase, now)) || !(await takeHolding(tx, u.id, p.id, 'presale', fromPresale, now))) {
      throw new AppError('insufficient_credits');
    }
    const order = await insertOrder(w, {
      user_id: u.id,
      project_id: p.id,
      side: 'sell',
      kind: 'sell',
      status: 'in_progress', // until the proceeds settle into available
      unit_price: price,
      tons: input.tons,
      total: proceeds,
      presale_tons: fromPresale,
      settle_at: settlementTime(now, config.SETTLEMENT_WORKING_DAYS, config.PUBLIC_HOLIDAYS),
      created_at: now,
      updated_at: now,
    });
    await postAhead(w, {
      kind: 'credit_sell',
      ref_type: 'order',
      ref_id: order.id,
      memo: `Sold ${input.tons} t of ${p.name} back at ${price} cents/t (${order.order_no})`,
      now,
      postings: [
        { owner: u.id, account: 'credits', amount: -input.tons },
        { owner: PLATFORM, account: 'registry', amount: input.tons },
        { owner: PLATFORM, account: 'sales', amount: -proceeds },
        { owner: u.id, account: 'unavailable', amount: proceeds },
      ],
    });
    await invalidateOrder(w, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  }, { record });
}
