// When a withdrawal is possible (docs/product.md#withdrawals): working days in Singapore time (Mon-Fri,
// not a public holiday from the server's config), at most one a day. The server decides; the screen uses
// this to say so before the member fills in the form, with the next day one is possible.

const DAY_MS = 86_400_000;
const SGT_OFFSET_MS = 8 * 3_600_000; // Singapore has no daylight saving time

export interface SgtDay {
  date: string; // YYYY-MM-DD in Singapore
  weekday: number; // 0 = Sunday ... 6 = Saturday
}

/** The Singapore calendar day and weekday of a moment. */
export function sgtDay(ms: number): SgtDay {
  const d = new Date(ms + SGT_OFFSET_MS);
  return { date: d.toISOString().slice(0, 10), weekday: d.getUTCDay() };
}

export type WithdrawalDayBlock = 'weekend' | 'holiday' | 'done_today';

export interface WithdrawalDay {
  /** Why no withdrawal is possible today, or null when one is. */
  block: WithdrawalDayBlock | null;
  /** The next Singapore day a withdrawal is possible (today when `block` is null). */
  next: string;
  /** Noon of `next` in Singapore, for formatting as a date. */
  nextMs: number;
}

function isWorkingDay(day: SgtDay, holidays: ReadonlySet<string>): boolean {
  return day.weekday >= 1 && day.weekday <= 5 && !holidays.has(day.date);
}

/** Noon (SGT) of a Singapore date. */
function sgtNoon(date: string): number {
  return Date.parse(`${date}T12:00:00+08:00`);
}

export function withdrawalDay(now: number, opts: { withdrawnToday: boolean; holidays?: readonly string[] }): WithdrawalDay {
  const holidays = new Set(opts.holidays ?? []);
  const today = sgtDay(now);
  const block: WithdrawalDayBlock | null =
    today.weekday === 0 || today.weekday === 6 ? 'weekend' : holidays.has(today.date) ? 'holiday' : opts.withdrawnToday ? 'done_today' : null;
  if (!block) return { block, next: today.date, nextMs: sgtNoon(today.date) };
  let ms = sgtNoon(today.date);
  for (let i = 0; i < 60; i++) {
    ms += DAY_MS;
    const day = sgtDay(ms);
    if (isWorkingDay(day, holidays)) return { block, next: day.date, nextMs: ms };
  }
  return { block, next: sgtDay(ms).date, nextMs: ms };
}
