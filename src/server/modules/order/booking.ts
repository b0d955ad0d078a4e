import type { EffectRecord } from '../../db/tx';
import type { Deps } from '../../env';
import { postAhead } from '../../ledger/ledger';
import type { Order } from '../../../shared/schemas/order';
import type { User } from '../session';
import { checkThenVerify } from '../user/trade-password';
import { checkBooking } from './checks';
import { bookingFacts, freshUser } from './facts';
import { invalidateOrder, loadOrder } from './repo';
import type { OrderInput } from './purchase';
import { changeUsage } from './usage';
import { insertOrder, orderTx } from './writes';

// Book a pre-sale (docs/product.md#pre-sale): read the booking's facts, check them (checks.ts), write the
// order "applying", the booker's used tons and the booking fee's entry.

export async function placeBooking(deps: Deps, user: User, input: OrderInput, record?: EffectRecord): Promise<Order> {
  const { db, clock, config } = deps;
  const recheck = async () => {
    const now = clock.now();
    checkBooking(await bookingFacts(db, user.id, input.project_id, now), user, input.tons, now, config.PRESALE_FEE_BP);
  };
  await checkThenVerify(deps, user, input.password, 'project_password_incorrect', recheck);
  return orderTx(db, 'insufficient_balance', async (tx, w) => {
    const now = clock.now();
    const u = await freshUser(tx, user.id);
    const { p, presalePrice, fee } = checkBooking(await bookingFacts(tx, u.id, input.project_id, now), u, input.tons, now, config.PRESALE_FEE_BP);
    const order = await insertOrder(w, {
      user_id: u.id,
      project_id: p.id,
      side: 'buy',
      kind: 'presale',
      status: 'applying',
      unit_price: presalePrice,
      tons: input.tons,
      total: input.tons * presalePrice,
      booking_fee: fee,
      created_at: now,
      updated_at: now,
    });
    await changeUsage(w, [{ userId: u.id, projectId: p.id, createdAt: now, tons: input.tons }]);
    if (fee > 0) {
      await postAhead(w, {
        kind: 'presale_booking',
        ref_type: 'order',
        ref_id: order.id,
        memo: `Booking fee of pre-sale ${order.order_no}: ${input.tons} t of ${p.name}`,
        now,
        postings: [
          { owner: u.id, account: 'available', amount: -fee },
          { owner: u.id, account: 'presale', amount: fee },
        ],
      });
    }
    await invalidateOrder(w, u.id, order.id, now);
    // The answer, read inside the transaction: stored with the Idempotency-Key as it commits.
    return (await loadOrder(tx, order.id))!;
  }, { record });
}
