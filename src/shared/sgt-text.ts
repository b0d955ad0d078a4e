import type { Lang } from './errors';

// Dates and times in Singapore time as documents write them for a reader (the receipt, the certificate and
// the evidence pack's PDF): "3 Dec 2026" and "3 Dec 2026, 9:05 am" in English, "2026年12月3日" and
// "2026年12月3日 09:05" in Chinese, as the app's screens do. Files for machines (the CSV) keep ISO 8601.

const SGT_OFFSET_MS = 8 * 3_600_000;
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The SGT calendar day of `ms`. */
function sgtDateText(ms: number, lang: Lang): string {
  const d = new Date(ms + SGT_OFFSET_MS);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  return lang === 'cn' ? `${y}年${m + 1}月${day}日` : `${day} ${EN_MONTHS[m]} ${y}`;
}

/** A day given as "YYYY-MM-DD" (an SGT calendar day, as a pack's period is). */
export function isoDayText(day: string, lang: Lang): string {
  return sgtDateText(Date.parse(`${day}T00:00:00+08:00`), lang);
}

/** The SGT date and time of `ms`, to the minute. */
export function sgtDateTimeText(ms: number, lang: Lang): string {
  const d = new Date(ms + SGT_OFFSET_MS);
  const [h, min] = [d.getUTCHours(), String(d.getUTCMinutes()).padStart(2, '0')];
  if (lang === 'cn') return `${sgtDateText(ms, lang)} ${String(h).padStart(2, '0')}:${min}`;
  return `${sgtDateText(ms, lang)}, ${h % 12 || 12}:${min} ${h < 12 ? 'am' : 'pm'}`;
}
