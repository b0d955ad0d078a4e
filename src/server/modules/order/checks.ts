import type { Config } from '../../config';
import { AppError } from '../../lib/http';
import { joinBlock, type ProjectRow } from '../project/service';
import { forSaleTons } from '../registry/holdings';
import type { User } from '../session';
import { assertNotRisk } from '../user/trade-password';
import { bookingFee, buybackPrice } from './calc';
import type { OrderRow } from './repo';

// The order use cases' checks: pure functions of the facts a use case read (in its write transaction, or
// before the payment password to refuse early), each written once and used by the single and the batched
// path alike. A refusal is an AppError whose key is the catalogue's (docs/product.md#error-catalogue);
// the first failing check answers, in the order below.

const BLOCK_KEYS = { not_started: 'project_not_started', ended: 'project_ended', full: 'project_full', paused: 'project_sales_paused' } as const;

/** A buyer's tons of a project that count towards its limits (docs/product.md#limits). */
interface UsedTons {
  monthlyUsed: number;
  totalUsed: number;
}

/** What a buy is checked against: the visible project, the buyer's standing as the database holds it, their
 *  used tons of the project, their available balance and the next order id. */
export interface PurchaseFacts extends UsedTons {
  p: ProjectRow;
  standing: Pick<User, 'risk' | 'trade_locked' | 'grade'>;
  available: number;
  nextOrderId: number;
}

function assertCanTrade(user: Pick<User, 'risk' | 'trade_locked'>): void {
  assertNotRisk(user);
  if (user.trade_locked) throw new AppError('account_locked');
}

function checkTons(p: ProjectRow, tons: number): void {
  if (tons < p.min_tons) throw new AppError('below_min_tons', { n: p.min_tons });
  if (tons > p.max_tons) throw new AppError('above_max_tons', { n: p.max_tons });
}

function checkGrade(user: Pick<User, 'grade'>, p: ProjectRow): void {
  if (user.grade < p.required_grade) throw new AppError('grade_not_met');
}

function checkLimits(used: UsedTons, p: ProjectRow, tons: number): void {
  if (used.monthlyUsed + tons > p.monthly_limit) throw new AppError('monthly_limit', { n: p.monthly_limit });
  if (used.totalUsed + tons > p.total_limit) throw new AppError('total_limit', { n: p.total_limit });
}

function checkBalance(available: number, cents: number): void {
  if (available < cents) throw new AppError('insufficient_balance');
}

/** A buy by the ton (docs/product.md#buying). The user's standing is the facts' (in the write
 *  transaction: as it is at the commit). */
export function checkPurchase(facts: PurchaseFacts, sessionUser: User, tons: number, now: number) {
  const { p, standing, available, nextOrderId } = facts;
  const user: User = { ...sessionUser, ...standing };
  assertCanTrade(user);
  // Sold out before its end time reads "full" even once the scheduler has closed it; otherwise the
  // reason the project card shows (docs/product.md#projects).
  const block = forSaleTons(p) <= 0 && now < p.end_time ? 'full' : joinBlock(p, now);
  if (block) throw new AppError(BLOCK_KEYS[block]);
  if (p.status !== 'in_progress') throw new AppError('project_not_started'); // a pre-sale still taking bookings
  checkTons(p, tons);
  checkGrade(user, p);
  checkLimits(facts, p, tons);
  // Never more than the project holds on its registry and has not promised (docs/product.md#registry-inventory).
  if (tons > forSaleTons(p)) throw new AppError('insufficient_remaining');
  const total = tons * p.price;
  checkBalance(available, total);
  return { p, total, nextOrderId, user };
}

/** What the buys before this one in a batch left of the facts it read with them (the same round trip,
 *  before any of them wrote): the project's remaining tons, the buyer's balance and used tons. */
export interface EarlierBuys {
  /** project id -> tons the accepted buys took */
  taken: Map<number, number>;
  /** user id -> cents they paid */
  spent: Map<number, number>;
  /** `${user id}\n${project id}` -> tons they bought */
  bought: Map<string, number>;
}

export const noEarlierBuys = (): EarlierBuys => ({ taken: new Map(), spent: new Map(), bought: new Map() });

/** The facts a buy in a batch is checked against: as if the earlier accepted buys had committed. */
export function afterEarlierBuys(facts: PurchaseFacts, userId: number, earlier: EarlierBuys): PurchaseFacts {
  const before = earlier.bought.get(`${userId}\n${facts.p.id}`) ?? 0;
  return {
    ...facts,
    p: { ...facts.p, remaining_tons: facts.p.remaining_tons - (earlier.taken.get(facts.p.id) ?? 0) },
    available: facts.available - (earlier.spent.get(userId) ?? 0),
    monthlyUsed: facts.monthlyUsed + before,
    totalUsed: facts.totalUsed + before,
  };
}

/** Counts an accepted buy into what the buys after it in the batch are checked against. */
export function addEarlierBuy(earlier: EarlierBuys, userId: number, projectId: number, tons: number, total: number): void {
  const mine = `${userId}\n${projectId}`;
  earlier.taken.set(projectId, (earlier.taken.get(projectId) ?? 0) + tons);
  earlier.spent.set(userId, (earlier.spent.get(userId) ?? 0) + total);
  earlier.bought.set(mine, (earlier.bought.get(mine) ?? 0) + tons);
}

/** What a booking is checked against (undefined project: not visible). */
export interface BookingFacts extends UsedTons {
  p: ProjectRow | undefined;
  available: number;
}

/** A pre-sale booking (docs/product.md#pre-sale): its fee is the part of the price paid now. */
export function checkBooking(facts: BookingFacts, user: User, tons: number, now: number, feeBp: number) {
  assertCanTrade(user);
  const { p } = facts;
  if (!p) throw new AppError('not_found');
  if (p.presale_price === null) throw new AppError('invalid_request'); // not a pre-sale project
  if (p.sales_paused_at !== null) throw new AppError('project_sales_paused');
  if (p.status === 'in_progress' || now >= p.selling_time || now >= p.end_time) throw new AppError('project_ended');
  if (p.remaining_tons <= 0) throw new AppError('project_full');
  if (p.status === 'closed') throw new AppError('project_ended');
  if (tons < 1 || tons > p.remaining_tons) throw new AppError('presale_quantity');
  checkTons(p, tons);
  checkGrade(user, p);
  checkLimits(facts, p, tons);
  const fee = bookingFee(tons, p.presale_price, feeBp);
  checkBalance(facts.available, fee);
  return { p, presalePrice: p.presale_price, fee };
}

/** What a final payment is checked against: the caller's order (undefined: none of theirs) and balance. */
export interface FinalPaymentFacts {
  order: OrderRow | undefined;
  available: number;
}

/** The final payment of an allocated pre-sale (docs/product.md#pre-sale): the booking fee pays first, the
 *  available balance the rest; a fee larger than the cost comes back. */
export function checkFinalPayment(facts: FinalPaymentFacts, user: User, now: number) {
  assertCanTrade(user);
  const { order } = facts;
  if (!order || order.kind !== 'presale') throw new AppError('not_found');
  if (order.status === 'final_payment_expired') throw new AppError('final_payment_expired');
  if (order.status !== 'pending_final_payment' || order.final_tons === null || order.final_unit_price === null || order.final_deadline === null) {
    throw new AppError('final_payment_failed');
  }
  if (now >= order.final_deadline) throw new AppError('final_payment_expired');
  const cost = order.final_tons * order.final_unit_price;
  const fromFee = Math.min(order.booking_fee, cost);
  const due = cost - fromFee; // what available pays
  const refund = order.booking_fee - fromFee;
  checkBalance(facts.available, due);
  return { order, cost, fromFee, due, refund };
}

/** What a sale is checked against: the visible project (undefined: none) and the seller's holdings of it. */
export interface SaleFacts {
  p: ProjectRow | undefined;
  held: { purchase: number; presale: number };
}

type SaleGrades = Pick<Config, 'SELL_MIN_GRADE' | 'PRESALE_SELL_MIN_GRADE'>;

/** A sale back to the platform (docs/product.md#selling-back): credits of pre-sale origin are sold last,
 *  and only from PRESALE_SELL_MIN_GRADE up. */
export function checkSale(facts: SaleFacts, user: User, tons: number, config: SaleGrades) {
  assertCanTrade(user);
  if (user.grade < config.SELL_MIN_GRADE) throw new AppError('sell_not_eligible');
  if (tons < 1) throw new AppError('invalid_number');
  const { p, held } = facts;
  if (!p) throw new AppError('not_found');
  if (held.purchase + held.presale < tons) throw new AppError('insufficient_credits');
  const fromPurchase = Math.min(held.purchase, tons);
  const fromPresale = tons - fromPurchase;
  if (fromPresale > 0 && user.grade < config.PRESALE_SELL_MIN_GRADE) throw new AppError('sell_not_eligible');
  const price = buybackPrice(p.price, p.yield_bp);
  return { p, price, proceeds: price * tons, fromPurchase, fromPresale };
}
