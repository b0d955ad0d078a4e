import { sgtDay, sgtMidnight } from '../../lib/clock';
import type { OrderKind } from '../../db/schema';

// Pure arithmetic of the marketplace: no database, no clock. Money integer cents, quantities whole tons.

const UNIT_MS = { days: 86_400_000, hours: 3_600_000, minutes: 60_000 } as const;
const DAY_MS = 86_400_000;
const SGT_OFFSET_MS = 8 * 3_600_000;

/** Length of a project's deadline cycle (docs/product.md#projects). */
export function cycleMs(value: number, unit: keyof typeof UNIT_MS): number {
  return value * UNIT_MS[unit];
}

// The booking fee and the buy-back price are the client's preview too: one copy, in src/shared/fees.ts.
export { bookingFee, buybackPrice } from '../../../shared/fees';

/** Membership grade earned by completed purchases: how many thresholds the total reaches (P0..P5). */
export function gradeForPurchases(totalCents: number, thresholds: readonly number[]): number {
  return thresholds.filter((t) => totalCents >= t).length;
}

/** Epoch ms of 00:00 SGT on the first day of the SGT calendar month of `ms` (monthly limits). */
export function sgtMonthStart(ms: number): number {
  const [y, m] = sgtDay(ms).date.split('-').map(Number) as [number, number];
  return Date.UTC(y, m - 1, 1) - SGT_OFFSET_MS;
}

export function isWorkingDay(ms: number, holidays: ReadonlySet<string>): boolean {
  const { date, weekday } = sgtDay(ms);
  return weekday >= 1 && weekday <= 5 && !holidays.has(date);
}

/** When sale proceeds settle: 00:00 SGT of the n-th working day after the sale's SGT date (T+n; working
 *  day = Mon-Fri minus the configured Singapore public holidays). */
export function settlementTime(saleMs: number, workingDays: number, holidays: readonly string[]): number {
  const set = new Set(holidays);
  let day = sgtMidnight(saleMs);
  let counted = 0;
  while (counted < workingDays) {
    day += DAY_MS;
    // Noon keeps the weekday right whatever a day's length; SGT has no daylight saving anyway.
    if (isWorkingDay(day + 12 * 3_600_000, set)) counted++;
  }
  return day;
}

/** Order numbers people can read out: kind letter, SGT date, id. e.g. B260302000017. */
export function orderNumber(kind: OrderKind, id: number, createdMs: number): string {
  const letter = kind === 'purchase' ? 'B' : kind === 'presale' ? 'P' : 'S';
  return `${letter}${sgtDay(createdMs).date.slice(2).replaceAll('-', '')}${String(id).padStart(6, '0')}`;
}

export interface Booking {
  id: number; // earlier bookings have smaller ids
  tons: number;
}

/** Final tons per booking. Everyone gets what they booked when supply allows; when oversubscribed, each
 *  gets floor(booked x supply / total booked), and the tons left by the flooring go one each to the
 *  largest fractional remainders, ties to the earliest booking. Never above booked; sum never above supply. */
export function allocate(bookings: readonly Booking[], supply: number): Map<number, number> {
  const out = new Map<number, number>();
  const booked = bookings.reduce((s, b) => s + b.tons, 0);
  if (booked <= supply) {
    for (const b of bookings) out.set(b.id, b.tons);
    return out;
  }
  const cap = Math.max(0, supply);
  const shares = bookings.map((b) => {
    // Exact integer arithmetic (BigInt: tons x supply may pass 2^53): quotient and remainder, no floats.
    const num = BigInt(b.tons) * BigInt(cap);
    return { id: b.id, base: Number(num / BigInt(booked)), rem: Number(num % BigInt(booked)), tons: b.tons };
  });
  let left = cap - shares.reduce((s, x) => s + x.base, 0);
  const order = [...shares].sort((a, b) => b.rem - a.rem || a.id - b.id);
  for (const s of order) {
    if (left <= 0) break;
    if (s.rem > 0 && s.base < s.tons) {
      s.base += 1;
      left -= 1;
    }
  }
  for (const s of shares) out.set(s.id, s.base);
  return out;
}
