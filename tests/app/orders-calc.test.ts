import { describe, expect, it } from 'vitest';
import {
  ORDER_TABS,
  clampTons,
  finalPayment,
  gradeRights,
  orderClock,
  orderInTab,
  orderStatusLabel,
  orderTotal,
  parseTons,
  sellStatusLabel,
  statusDescriptor,
  statusTone,
  tonsBounds,
  tonsProblem,
} from '../../src/app/features/orders/order-calc';
import { refineProjects } from '../../src/app/features/projects/project-refine';
import { bookingFee, buybackPrice, saleProceeds } from '../../src/shared/fees';
import * as serverCalc from '../../src/server/modules/order/calc';
import { ORDER_SIDES, ORDER_STATUSES } from '../../src/shared/schemas/order';
import type { Project } from '../../src/shared/schemas/content';

// The pure helpers of the order screens (src/app/features/orders/order-calc.ts): they preview what the
// server will compute, so they must agree with src/server/modules/order/calc.ts to the cent.

describe('money', () => {
  it('totals are tons x unit price in integer cents', () => {
    expect(orderTotal(3, 1650)).toBe(4950);
    expect(orderTotal(500, 3800)).toBe(1_900_000);
    expect(Number.isInteger(orderTotal(7, 1999))).toBe(true);
  });

  it('booking fee rounds half up like the server', () => {
    expect(bookingFee(10, 1100, 1000)).toBe(1100); // 10% of S$110
    expect(bookingFee(1, 1105, 1000)).toBe(111); // 110.5 -> 111
    expect(bookingFee(3, 333, 1000)).toBe(100); // 99.9 -> 100
    expect(bookingFee(5, 2100, 0)).toBe(0);
    for (const [t, p, bp] of [
      [1, 1, 1],
      [7, 1999, 1250],
      [123, 4567, 999],
      [10_000, 3900, 1000],
    ] as const) {
      expect(bookingFee(t, p, bp)).toBe(serverCalc.bookingFee(t, p, bp));
    }
  });

  it('buy-back price is price x (1 + yield), half up, the same as the server', () => {
    expect(buybackPrice(1650, 600)).toBe(1749);
    expect(buybackPrice(1000, 0)).toBe(1000);
    expect(buybackPrice(1005, 50)).toBe(1010); // 1010.025
    expect(buybackPrice(999, 550)).toBe(1054); // 1053.945
    for (const [p, y] of [
      [1, 1],
      [3800, 450],
      [4500, 825],
      [12_345, 10_000],
    ] as const) {
      expect(buybackPrice(p, y)).toBe(serverCalc.buybackPrice(p, y));
    }
    expect(saleProceeds(4, 1650, 600)).toBe(4 * 1749);
  });

  it('final payment: cost less the booking fee, never below zero; the server figure wins when given', () => {
    expect(finalPayment({ final_tons: 8, final_unit_price: 1200, booking_fee: 1100, final_amount: null })).toEqual({ cost: 9600, fromFee: 1100, due: 8500 });
    expect(finalPayment({ final_tons: 1, final_unit_price: 500, booking_fee: 1100, final_amount: null })).toEqual({ cost: 500, fromFee: 500, due: 0 });
    expect(finalPayment({ final_tons: 8, final_unit_price: 1200, booking_fee: 1100, final_amount: 8500 }).due).toBe(8500);
    expect(finalPayment({ final_tons: null, final_unit_price: null, booking_fee: 0, final_amount: null })).toEqual({ cost: 0, fromFee: 0, due: 0 });
  });
});

describe('tons', () => {
  const project = { min_tons: 2, max_tons: 500, remaining_tons: 10_000 };

  it('bounds: per-order min/max, capped by remaining supply and the caller’s limits', () => {
    expect(tonsBounds(project)).toEqual({ min: 2, max: 500 });
    expect(tonsBounds({ ...project, remaining_tons: 40 })).toEqual({ min: 2, max: 40 });
    expect(tonsBounds(project, { monthly_left: 30, total_left: 100 })).toEqual({ min: 2, max: 30 });
    expect(tonsBounds(project, { monthly_left: 300, total_left: 12 })).toEqual({ min: 2, max: 12 });
    expect(tonsBounds({ ...project, remaining_tons: 0 })).toEqual({ min: 2, max: 0 });
    expect(tonsBounds({ ...project, min_tons: 0 }).min).toBe(1);
  });

  it('clamping keeps a whole number inside the bounds', () => {
    const b = { min: 2, max: 40 };
    expect(clampTons(1, b)).toBe(2);
    expect(clampTons(2, b)).toBe(2);
    expect(clampTons(17, b)).toBe(17);
    expect(clampTons(41, b)).toBe(40);
    expect(clampTons(7.9, b)).toBe(7);
    expect(clampTons(Number.NaN, b)).toBe(2);
    expect(clampTons(10, { min: 2, max: 0 })).toBe(2); // nothing orderable: the stepper is disabled anyway
  });

  it('parses only whole non-negative numbers', () => {
    expect(parseTons('12')).toBe(12);
    expect(parseTons(' 7 ')).toBe(7);
    for (const bad of ['', ' ', '1.5', '-3', '1e3', 'abc', '1234567890']) expect(parseTons(bad)).toBeNull();
  });

  it('names the problem of a quantity', () => {
    const b = { min: 2, max: 40 };
    expect(tonsProblem(null, b)).toBe('empty');
    expect(tonsProblem(1, b)).toBe('below_min');
    expect(tonsProblem(41, b)).toBe('above_max');
    expect(tonsProblem(2, b)).toBeNull();
    expect(tonsProblem(40, b)).toBeNull();
  });
});

describe('status labels', () => {
  it('every order status has a label, a tone, and a sell wording', () => {
    for (const status of ORDER_STATUSES) {
      expect(orderStatusLabel[status], status).toBeDefined();
      expect(sellStatusLabel[status], status).toBeDefined();
      expect(['active', 'action', 'done', 'bad']).toContain(statusTone[status]);
      for (const side of ORDER_SIDES) expect(statusDescriptor({ side, status }).id).toBeTruthy();
    }
    expect(Object.keys(orderStatusLabel).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(Object.keys(statusTone).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('the labels differ per status (no copy-paste duplicates)', () => {
    const ids = ORDER_STATUSES.map((s) => orderStatusLabel[s].id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(statusDescriptor({ side: 'sell', status: 'in_progress' }).id).not.toBe(statusDescriptor({ side: 'buy', status: 'in_progress' }).id);
  });

  it('every order lands on the "all" tab and on exactly one other tab', () => {
    for (const side of ORDER_SIDES)
      for (const status of ORDER_STATUSES) {
        expect(orderInTab({ side, status }, 'all')).toBe(true);
        const others = ORDER_TABS.filter((t) => t !== 'all' && orderInTab({ side, status }, t));
        expect(others, `${side} ${status}`).toHaveLength(1);
      }
  });
});

describe('order clocks', () => {
  const base = { cycle_end_ms: 1000, final_deadline_ms: 2000, settle_at_ms: 3000 };
  it('counts down to the cycle end, the final-payment deadline or the settlement', () => {
    expect(orderClock({ ...base, side: 'buy', status: 'in_progress' })).toEqual({ kind: 'cycle', to: 1000 });
    expect(orderClock({ ...base, side: 'buy', status: 'final_payment_made' })).toEqual({ kind: 'cycle', to: 1000 });
    expect(orderClock({ ...base, side: 'buy', status: 'pending_final_payment' })).toEqual({ kind: 'final', to: 2000 });
    expect(orderClock({ ...base, side: 'sell', status: 'in_progress' })).toEqual({ kind: 'settle', to: 3000 });
    for (const status of ['applying', 'completed', 'final_payment_expired'] as const) expect(orderClock({ ...base, side: 'buy', status })).toBeNull();
    expect(orderClock({ ...base, side: 'sell', status: 'completed' })).toBeNull();
    expect(orderClock({ side: 'buy', status: 'in_progress', cycle_end_ms: null, final_deadline_ms: null, settle_at_ms: null })).toBeNull();
  });
});

describe('membership rights', () => {
  it('P0 cannot sell, P1-P2 sell purchased credits, P3+ (ambassador) also pre-sale credits', () => {
    expect(gradeRights(0)).toEqual({ buy: true, sellPurchase: false, sellPresale: false, ambassador: false });
    expect(gradeRights(1)).toMatchObject({ sellPurchase: true, sellPresale: false });
    expect(gradeRights(2)).toMatchObject({ sellPurchase: true, sellPresale: false });
    expect(gradeRights(3)).toMatchObject({ sellPurchase: true, sellPresale: true, ambassador: true });
    expect(gradeRights(5)).toMatchObject({ sellPurchase: true, sellPresale: true });
    expect(gradeRights(2, 3, 3).sellPurchase).toBe(false);
  });
});

describe('project list refinements (standard and sort are client-side)', () => {
  const p = (id: number, standard: string, price: number, selling: number, presale: number | null = null): Project =>
    ({ id, standard, price, presale_price: presale, status: presale ? 'presale' : 'in_progress', selling_time_ms: selling }) as Project;
  const rows = [p(1, 'VCS', 1650, 30), p(2, 'Gold Standard', 1000, 10), p(3, 'VCS', 4500, 20, 900)];

  it('filters by standard and sorts by the price a buyer pays now, or by selling time', () => {
    expect(refineProjects(rows, { standard: 'VCS' }).map((x) => x.id)).toEqual([1, 3]);
    expect(refineProjects(rows, { sort: 'price_asc' }).map((x) => x.id)).toEqual([3, 2, 1]);
    expect(refineProjects(rows, { sort: 'price_desc' }).map((x) => x.id)).toEqual([1, 2, 3]);
    expect(refineProjects(rows, { sort: 'selling_soon' }).map((x) => x.id)).toEqual([2, 3, 1]);
    expect(refineProjects(rows, { sort: 'selling_latest' }).map((x) => x.id)).toEqual([1, 3, 2]);
    expect(refineProjects(rows, {}).map((x) => x.id)).toEqual([1, 2, 3]);
    expect(rows.map((x) => x.id)).toEqual([1, 2, 3]); // not sorted in place
  });

  it('puts ended projects after the open ones, whichever the sort (the All tab holds both)', () => {
    const ended = (id: number, price: number, selling: number, how: 'closed' | 'past_end'): Project =>
      ({ ...p(id, 'VCS', price, selling), ...(how === 'closed' ? { status: 'closed', join_block: 'ended' } : { join_block: 'ended' }) }) as Project;
    const all = [ended(4, 100, 5, 'closed'), ...rows, ended(5, 9000, 40, 'past_end')];
    expect(refineProjects(all, { sort: 'price_asc' }).map((x) => x.id)).toEqual([3, 2, 1, 4, 5]);
    expect(refineProjects(all, { sort: 'price_desc' }).map((x) => x.id)).toEqual([1, 2, 3, 5, 4]);
    expect(refineProjects(all, { sort: 'selling_soon' }).map((x) => x.id)).toEqual([2, 3, 1, 4, 5]);
    expect(refineProjects(all, { sort: 'selling_latest' }).map((x) => x.id)).toEqual([1, 3, 2, 5, 4]);
  });
});
