import { formatSgd } from '../../shared/money';
import { currentLocale } from './i18n';

export { formatSgd };

/** A localised text of bilingual content: the Chinese field when the app is in Chinese. */
export function pick<T extends object>(item: T, field: keyof T & string): string {
  const cn = (item as Record<string, unknown>)[`${field}_cn`];
  const en = (item as Record<string, unknown>)[field];
  return currentLocale() === 'zh-Hans' && typeof cn === 'string' && cn ? cn : String(en ?? '');
}

// Singapore time has been UTC+8 all year since 1982, so a day in SGT is the UTC day of ms + 8 h.
const SGT_OFFSET_MS = 8 * 3600_000;
// Three-letter months in English ("Sep", not en-SG's "Sept", beside "Aug" and "Oct").
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A month of the "YYYY-MM" key, short: "Mar", "3月". */
export function formatShortMonth(month: string): string {
  const n = Number(month.slice(5));
  return currentLocale() === 'zh-Hans' ? `${n}月` : (EN_MONTHS[n - 1] ?? month);
}

/** A day in Singapore time: "24 Nov 2026", "2026年11月24日" (Intl.DateTimeFormat's en-SG and zh-Hans-SG
 *  with a short month, but "Sep"). Not Intl: a page's first Intl.DateTimeFormat with a time zone loads
 *  ICU's zone data (~45 ms in Chromium here, one long task), and home's news rows show dates
 *  (bench/lighthouse.ts, Total Blocking Time). */
export function formatDate(ms: number): string {
  const d = new Date(ms + SGT_OFFSET_MS);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  return currentLocale() === 'zh-Hans' ? `${y}年${m + 1}月${day}日` : `${day} ${EN_MONTHS[m]} ${y}`;
}

/** A time of day in Singapore time, the one clock format of the app: "9:05 am", "2:30 pm" in English,
 *  "14:30" in Chinese (24-hour, no 上午/下午). Its spaces do not break, so "am" never sits alone. */
function formatTime(ms: number): string {
  const d = new Date(ms + SGT_OFFSET_MS);
  const [h, min] = [d.getUTCHours(), String(d.getUTCMinutes()).padStart(2, '0')];
  if (currentLocale() === 'zh-Hans') return `${String(h).padStart(2, '0')}:${min}`;
  return `${h % 12 || 12}:${min}\u00a0${h < 12 ? 'am' : 'pm'}`;
}

/** A date and time in Singapore time: "24 Nov 2026, 2:30 pm", "2026年11月24日 14:30". */
export function formatDateTime(ms: number): string {
  return currentLocale() === 'zh-Hans' ? `${formatDate(ms)} ${formatTime(ms)}` : `${formatDate(ms)}, ${formatTime(ms)}`;
}

/** Whole tons: "1,250 t" in English, "1,250 吨" in Chinese (a bare "t" is no unit to a Chinese reader). */
export function formatTons(tons: number): string {
  const n = tons.toLocaleString('en-US');
  // A no-break space: "5 t" never breaks into "5" above "t".
  return currentLocale() === 'zh-Hans' ? `${n}\u00a0吨` : `${n}\u00a0t`;
}

/** "6%", "6.5%", "6.25%" from basis points, without floating-point noise. */
export function formatYield(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const frac = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''}%`;
}

const MINUS = '\u2212';

/** An amount with its sign, in its unit: "+S$10.00", "−S$5.00", "+3 t". */
export function formatSigned(amount: number, unit: 'cents' | 'tons'): string {
  const sign = amount > 0 ? '+' : amount < 0 ? MINUS : '';
  const abs = Math.abs(amount);
  return sign + (unit === 'tons' ? formatTons(abs) : formatSgd(abs));
}

/** An amount in its unit (money or tons). */
export function formatAmount(amount: number, unit: 'cents' | 'tons'): string {
  return unit === 'tons' ? formatTons(amount) : formatSgd(amount);
}
