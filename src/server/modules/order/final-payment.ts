import type { EffectRecord } from '../../db/tx';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { PLATFORM, postAhead } from '../../ledger/ledger';
import type { Order } from '../../../shared/schemas/order';
import type { User } from '../session';
import { checkThenVerify } from '../user/trade-password';
import { cycleMs } from './calc';
import { checkFinalPayment } from './checks';
import { finalPaymentFacts, freshUser } from './facts';
import { invalidateOrder, loadOrder } from './repo';
import { orderTx } from './writes';

// The final payment of an allocated pre-sale (docs/product.md#pre-sale): read the order and the balance,
// check them (checks.ts), move the order to "final_payment_made" and post the payment.

export async function payFinal(deps: Deps, user: User, input: { order_id: number; password: string }, record?: EffectRecord): Promise<Order> {
  const { db, clock } = deps;
  const recheck = async () => void checkFinalPayment(await finalPaymentFacts(db, user.id, input.order_id), user, clock.now());
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_balance', async (tx, w) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { order, fromFee, due, refund } = checkFinalPayment(await finalPaymentFacts(tx, u.id, input.order_id), u, now);
    const p = await tx.selectFrom('projects').selectAll().where('id', '=', order.project_id).executeTakeFirstOrThrow();
    const updated = await tx
      .updateTable('orders')
      .set({ status: 'final_payment_made', cycle_end: now + cycleMs(p.cycle_value, p.cycle_unit), updated_at: now })
      .where('id', '=', order.id)
      .where('status', '=', 'pending_final_payment')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('final_payment_failed');
    const postings = [
      { owner: u.id, account: 'presale' as const, amount: -order.booking_fee },
      { owner: u.id, account: 'available' as const, amount: refund - due },
      { owner: PLATFORM, account: 'sales' as const, amount: fromFee + due },
    ].filter((x) => x.amount !== 0);
    if (postings.length > 0) {
      await postAhead(w, { kind: 'presale_final_payment', ref_type: 'order', ref_id: order.id, memo: `Final payment of ${order.order_no}`, now, postings });
    }
    await invalidateOrder(w, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  }, { record });
}
