// Money is integer cents (SGD). Formatting never goes through floats for the amount itself.
export function formatSgd(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not integer cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.trunc(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}S$${groupThousands(dollars)}.${rest}`;
}

/** 1234567 -> "1,234,567". Not toLocaleString: a page's first Intl call loads ICU data (13-26 ms in
 *  Chromium here), and a price is on the first project card's path (bench/offline-start.ts). */
function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Parses a user-typed dollar amount ("12", "12.5", "1,234.50") into cents; null when not a valid amount. */
export function parseSgdToCents(text: string): number | null {
  const clean = text.replace(/[,\s]/g, '').replace(/^S?\$/i, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(clean);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
