import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Order, OrderLimits, OrderStatus } from '../../../shared/schemas/order';

// Pure arithmetic and labels of the order screens. Money integer cents, quantities whole tons. The money
// rules (booking fee, buy-back price) are src/shared/fees.ts, the server's own; the server is the authority
// and these only preview its numbers.

/** tons x unit price, in cents. */
export function orderTotal(tons: number, unitPrice: number): number {
  return tons * unitPrice;
}


export interface TonsBounds {
  min: number;
  max: number;
}

/**
 * The tons a buyer may choose: the project's per-order min and max, capped by the remaining supply and the
 * caller's remaining monthly and total limits (when known). max < min means nothing can be ordered now.
 */
export function tonsBounds(
  project: { min_tons: number; max_tons: number; remaining_tons: number },
  limits?: Pick<OrderLimits, 'monthly_left' | 'total_left'> | null,
): TonsBounds {
  let max = Math.min(project.max_tons, project.remaining_tons);
  if (limits) max = Math.min(max, limits.monthly_left, limits.total_left);
  return { min: Math.max(1, project.min_tons), max: Math.max(0, max) };
}

/** A whole number of tons inside the bounds (the nearest bound when outside; min when not a number). */
export function clampTons(value: number, bounds: TonsBounds): number {
  if (!Number.isFinite(value)) return bounds.min;
  const whole = Math.trunc(value);
  if (bounds.max < bounds.min) return bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, whole));
}

/** What the tons input holds, as a whole number; null when it is empty or not a whole number. */
export function parseTons(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t)) return null;
  return Number(t);
}

/** Why a chosen quantity is not allowed, or null. */
export type TonsProblem = 'empty' | 'below_min' | 'above_max' | null;
export function tonsProblem(value: number | null, bounds: TonsBounds): TonsProblem {
  if (value === null) return 'empty';
  if (value < bounds.min) return 'below_min';
  if (value > bounds.max) return 'above_max';
  return null;
}

/** The final payment of an allocated pre-sale: what it costs, what the booking fee covers, what is due. */
export function finalPayment(order: Pick<Order, 'final_tons' | 'final_unit_price' | 'booking_fee' | 'final_amount'>): {
  cost: number;
  fromFee: number;
  due: number;
} {
  const cost = (order.final_tons ?? 0) * (order.final_unit_price ?? 0);
  const fromFee = Math.min(order.booking_fee, cost);
  const due = order.final_amount ?? cost - fromFee;
  return { cost, fromFee, due };
}

export const orderStatusLabel: Record<OrderStatus, MessageDescriptor> = {
  applying: msg({ message: 'Booked', context: 'order status: a pre-sale booking awaiting allocation' }),
  in_progress: msg`In progress`,
  completed: msg`Completed`,
  pending_final_payment: msg`Pending final payment`,
  final_payment_made: msg`Final payment made`,
  final_payment_expired: msg`Final-payment period expired`,
};

/** A sell order is "in progress" until its proceeds settle; the list says so in words a seller expects. */
export const sellStatusLabel: Record<OrderStatus, MessageDescriptor> = {
  ...orderStatusLabel,
  in_progress: msg`Settling`,
  completed: msg`Settled`,
};

export function statusDescriptor(order: Pick<Order, 'side' | 'status'>): MessageDescriptor {
  return (order.side === 'sell' ? sellStatusLabel : orderStatusLabel)[order.status];
}

/** The colour family of a status chip. */
export type StatusTone = 'active' | 'action' | 'done' | 'bad';
export const statusTone: Record<OrderStatus, StatusTone> = {
  applying: 'active',
  in_progress: 'active',
  completed: 'done',
  pending_final_payment: 'action',
  final_payment_made: 'active',
  final_payment_expired: 'bad',
};

/** The one deadline an order is waiting for, if any: the cycle end, the final-payment deadline or the settlement. */
export type OrderClock = { kind: 'cycle' | 'final' | 'settle'; to: number } | null;
export function orderClock(
  order: Pick<Order, 'side' | 'status' | 'cycle_end_ms' | 'final_deadline_ms' | 'settle_at_ms'>,
): OrderClock {
  if (order.side === 'sell') return order.status === 'in_progress' && order.settle_at_ms ? { kind: 'settle', to: order.settle_at_ms } : null;
  if ((order.status === 'in_progress' || order.status === 'final_payment_made') && order.cycle_end_ms) return { kind: 'cycle', to: order.cycle_end_ms };
  if (order.status === 'pending_final_payment' && order.final_deadline_ms) return { kind: 'final', to: order.final_deadline_ms };
  return null;
}

/** The status tabs of the orders screen: each maps to the list query (side and status). */
import { ORDER_TABS, type OrderTab } from './order-tabs';
export { ORDER_TABS, type OrderTab };

/** Whether a cached order belongs on a tab (the offline list filters the cache the way the server would). */
export function orderInTab(order: Pick<Order, 'side' | 'status'>, tab: OrderTab): boolean {
  switch (tab) {
    case 'all':
      return true;
    case 'sell':
      return order.side === 'sell';
    case 'in_progress':
      return order.side === 'buy' && (order.status === 'in_progress' || order.status === 'final_payment_made' || order.status === 'applying');
    case 'pending':
      return order.side === 'buy' && order.status === 'pending_final_payment';
    case 'completed':
      return order.side === 'buy' && (order.status === 'completed' || order.status === 'final_payment_expired');
  }
}

/** Membership grades P0..P5 and what each allows (docs/product.md#membership). */
export const GRADES = [0, 1, 2, 3, 4, 5] as const;
export interface GradeRights {
  buy: boolean; // every grade buys projects whose required grade it meets
  sellPurchase: boolean;
  sellPresale: boolean;
  ambassador: boolean;
}
export function gradeRights(grade: number, sellMinGrade = 1, presaleSellMinGrade = 3): GradeRights {
  return {
    buy: true,
    sellPurchase: grade >= sellMinGrade,
    sellPresale: grade >= presaleSellMinGrade && grade >= sellMinGrade,
    ambassador: grade >= 3,
  };
}
