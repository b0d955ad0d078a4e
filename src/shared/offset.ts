import type { WireLang } from './api';

// The monthly offset's calendar and consent (docs/product.md#monthly-offset), shared so the app shows the
// same dates and the same consent text the server stores. Business time is SGT (UTC+8, no daylight saving).

const SGT_OFFSET_MS = 8 * 3_600_000;
/** The hour (SGT) of the plan's day at which its month's buy falls due: within office hours, so a notice
 *  of a refusal reaches her while she can still top up and buy by hand. */
export const OFFSET_RUN_HOUR = 9;
/** Plans a member may hold that are not cancelled: enough for a few projects, few enough that a script
 *  cannot fill the scheduler's queue. */
export const OFFSET_PLANS_MAX = 10;

/** The SGT calendar month of an instant, `YYYY-MM`. */
export function sgtMonth(ms: number): string {
  return new Date(ms + SGT_OFFSET_MS).toISOString().slice(0, 7);
}

/** When the buy of `month` (YYYY-MM) falls due for a plan on `day`: OFFSET_RUN_HOUR SGT on that day, or
 *  on the month's last day when it is shorter (day 31 in April runs on the 30th). */
export function offsetDueAt(month: string, day: number): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Date.UTC(y, m - 1, Math.min(day, last), OFFSET_RUN_HOUR) - SGT_OFFSET_MS;
}

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The first due time of a plan on `day` at or after `now`: this month's when it is still ahead, else the
 *  next month's. */
export function firstDueAt(now: number, day: number): number {
  const month = sgtMonth(now);
  const thisMonth = offsetDueAt(month, day);
  return thisMonth >= now ? thisMonth : offsetDueAt(nextMonth(month), day);
}

/** The suggested tons a month for a yearly footprint: a twelfth, rounded up to a whole ton. */
export function suggestedMonthlyTons(yearlyKg: number): number {
  return Math.max(1, Math.ceil(yearlyKg / 12 / 1000));
}

export interface ConsentFacts {
  tons: number;
  project: string;
  day: number;
}

/** The consent she confirms with her payment password, in her language; stored with the plan as shown. */
export function offsetConsentText(lang: WireLang, f: ConsentFacts): string {
  const day = f.day >= 29 ? `${f.day} (or the month's last day when it is shorter)` : String(f.day);
  if (lang === 'cn') {
    const dayCn = f.day >= 29 ? `${f.day} 日（当月不足 ${f.day} 天时为最后一天）` : `${f.day} 日`;
    return `我授权 Canopy 在每月 ${dayCn}（新加坡时间）以项目当日价格，从我的可用余额购买「${f.project}」${f.tons} 吨碳信用，直至我暂停或取消本计划。每次购买按普通购买的规则检查；无法购买时当月不下单并通知我。`;
  }
  return `I authorise Canopy to buy ${f.tons} t of "${f.project}" on day ${day} of every month (Singapore time), at the project's price on that day, from my available balance, until I pause or cancel this plan. Each buy is checked like any other buy; when one cannot be placed, nothing is bought that month and I am told why.`;
}
