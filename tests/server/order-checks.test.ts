// The order use cases' pure checks (src/server/modules/order/checks.ts): a buy alone is checked against
// the facts it read; a buy in a batch against the same facts as the buys before it in the batch left them.
// Both give the same refusal for the same situation.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/lib/http';
import type { ProjectRow } from '../../src/server/modules/project/service';
import type { User } from '../../src/server/modules/session';
import { addEarlierBuy, afterEarlierBuys, checkBooking, checkFinalPayment, checkPurchase, checkSale, noEarlierBuys, type PurchaseFacts } from '../../src/server/modules/order/checks';
import type { OrderRow } from '../../src/server/modules/order/repo';

const NOW = Date.UTC(2026, 10, 26, 4);
const HOUR = 3_600_000;

const project = (over: Partial<ProjectRow> = {}): ProjectRow =>
  ({
    id: 7, name: 'Mangroves', name_cn: '', status: 'in_progress', price: 1_000, presale_price: null, min_tons: 1, max_tons: 10, total_tons: 100,
    remaining_tons: 100, selling_time: NOW - HOUR, end_time: NOW + 24 * HOUR, cycle_value: 30, cycle_unit: 'days', yield_bp: 500, required_grade: 0,
    monthly_limit: 5, total_limit: 8, block_tons: 100, cancelled_tons: 0, sales_paused_at: null, sales_paused_note: '', ...over,
  }) as ProjectRow;
const user = (over: Partial<User> = {}): User => ({ id: 1, risk: 0, trade_locked: 0, grade: 1, ...over }) as User;
const facts = (over: Partial<PurchaseFacts> = {}): PurchaseFacts => ({
  p: project(), standing: { risk: 0, trade_locked: 0, grade: 1 }, monthlyUsed: 0, totalUsed: 0, available: 100_000, nextOrderId: 1, ...over,
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err.key;
    throw err;
  }
  return 'ok';
}

describe('checkPurchase, alone and in a batch', () => {
  it('refuses over the monthly limit the same way whether the earlier tons committed or came earlier in the batch', () => {
    const alone = refusal(() => checkPurchase(facts({ monthlyUsed: 4, totalUsed: 4 }), user(), 2, NOW));
    const earlier = noEarlierBuys();
    addEarlierBuy(earlier, 1, 7, 4, 4_000);
    const batched = refusal(() => checkPurchase(afterEarlierBuys(facts(), 1, earlier), user(), 2, NOW));
    expect(alone).toBe('monthly_limit');
    expect(batched).toBe(alone);
  });

  it('refuses more tons than remain the same way, the remaining tons taken by another buyer', () => {
    const alone = refusal(() => checkPurchase(facts({ p: project({ remaining_tons: 1 }) }), user(), 2, NOW));
    const earlier = noEarlierBuys();
    addEarlierBuy(earlier, 2, 7, 2, 2_000);
    const batched = refusal(() => checkPurchase(afterEarlierBuys(facts({ p: project({ remaining_tons: 3 }) }), 1, earlier), user(), 2, NOW));
    expect(alone).toBe('insufficient_remaining');
    expect(batched).toBe(alone);
  });

  it('refuses more tons than the project holds on its registry unpromised, alone and after earlier buys', () => {
    // 100 t of supply, 40 t held in registry blocks, 35 t already sold: 5 t can be sold.
    const held = { remaining_tons: 65, block_tons: 40, monthly_limit: 50, total_limit: 50 };
    expect(checkPurchase(facts({ p: project(held) }), user(), 5, NOW).total).toBe(5_000);
    const alone = refusal(() => checkPurchase(facts({ p: project(held) }), user(), 6, NOW));
    const earlier = noEarlierBuys();
    addEarlierBuy(earlier, 2, 7, 4, 4_000);
    const batched = refusal(() => checkPurchase(afterEarlierBuys(facts({ p: project(held) }), 1, earlier), user(), 2, NOW));
    expect(alone).toBe('insufficient_remaining');
    expect(batched).toBe(alone);
    // Nothing held unpromised: the project is full, however much supply it lists.
    expect(refusal(() => checkPurchase(facts({ p: project({ remaining_tons: 65, block_tons: 35 }) }), user(), 1, NOW))).toBe('project_full');
  });

  it('refuses a balance the earlier buys of the same buyer spent', () => {
    const alone = refusal(() => checkPurchase(facts({ available: 1_500 }), user(), 2, NOW));
    const earlier = noEarlierBuys();
    addEarlierBuy(earlier, 1, 8, 1, 3_500); // another project: the balance counts, the tons do not
    const batched = refusal(() => checkPurchase(afterEarlierBuys(facts({ available: 5_000 }), 1, earlier), user(), 2, NOW));
    expect(alone).toBe('insufficient_balance');
    expect(batched).toBe(alone);
  });

  it('checks the standing the facts read, not the session', () => {
    expect(refusal(() => checkPurchase(facts({ standing: { risk: 1, trade_locked: 0, grade: 1 } }), user(), 1, NOW))).toBe('risk_forbidden');
    expect(refusal(() => checkPurchase(facts({ standing: { risk: 0, trade_locked: 0, grade: 0 } }), user(), 1, NOW))).toBe('ok');
    expect(refusal(() => checkPurchase(facts({ p: project({ required_grade: 2 }) }), user({ grade: 3 }), 1, NOW))).toBe('grade_not_met');
  });

  it('answers the total and the order id when every check passes', () => {
    expect(checkPurchase(facts({ nextOrderId: 42 }), user(), 3, NOW)).toMatchObject({ total: 3_000, nextOrderId: 42 });
  });
});

describe('the other use cases use the same checks', () => {
  const presale = project({ status: 'presale', presale_price: 800, selling_time: NOW + HOUR });

  it('a booking over the limits or the balance is refused as a buy is', () => {
    expect(refusal(() => checkBooking({ p: presale, monthlyUsed: 4, totalUsed: 4, available: 100_000 }, user(), 2, NOW, 1_000))).toBe('monthly_limit');
    expect(refusal(() => checkBooking({ p: presale, monthlyUsed: 0, totalUsed: 0, available: 0 }, user(), 2, NOW, 1_000))).toBe('insufficient_balance');
    expect(refusal(() => checkBooking({ p: undefined, monthlyUsed: 0, totalUsed: 0, available: 0 }, user({ risk: 1 }), 2, NOW, 1_000))).toBe('risk_forbidden');
  });

  it('a final payment past its deadline or short of balance is refused', () => {
    const order = { kind: 'presale', status: 'pending_final_payment', final_tons: 2, final_unit_price: 900, final_deadline: NOW + HOUR, booking_fee: 160 } as OrderRow;
    expect(checkFinalPayment({ order, available: 1_640 }, user(), NOW)).toMatchObject({ cost: 1_800, fromFee: 160, due: 1_640, refund: 0 });
    expect(refusal(() => checkFinalPayment({ order, available: 1_639 }, user(), NOW))).toBe('insufficient_balance');
    expect(refusal(() => checkFinalPayment({ order, available: 10_000 }, user(), NOW + HOUR))).toBe('final_payment_expired');
  });

  it('a project whose sales a registry reconciliation paused refuses buys and bookings; a sale back still goes', () => {
    const paused = project({ sales_paused_at: NOW - HOUR });
    expect(refusal(() => checkPurchase(facts({ p: paused }), user(), 1, NOW))).toBe('project_sales_paused');
    const booking = project({ status: 'presale', presale_price: 800, selling_time: NOW + HOUR, sales_paused_at: NOW - HOUR });
    expect(refusal(() => checkBooking({ p: booking, monthlyUsed: 0, totalUsed: 0, available: 100_000 }, user(), 2, NOW, 1_000))).toBe('project_sales_paused');
    expect(checkSale({ p: paused, held: { purchase: 2, presale: 0 } }, user(), 1, { SELL_MIN_GRADE: 1, PRESALE_SELL_MIN_GRADE: 3 })).toMatchObject({ fromPurchase: 1 });
  });

  it('a sale of pre-sale credits below the grade for them is refused', () => {
    const config = { SELL_MIN_GRADE: 1, PRESALE_SELL_MIN_GRADE: 3 };
    expect(checkSale({ p: project(), held: { purchase: 2, presale: 5 } }, user(), 2, config)).toMatchObject({ fromPurchase: 2, fromPresale: 0 });
    expect(refusal(() => checkSale({ p: project(), held: { purchase: 2, presale: 5 } }, user(), 3, config))).toBe('sell_not_eligible');
    expect(refusal(() => checkSale({ p: project(), held: { purchase: 2, presale: 0 } }, user(), 3, config))).toBe('insufficient_credits');
  });
});
