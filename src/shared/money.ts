// Money is integer cents (SGD). Formatting never goes through floats for the amount itself.
export function formatSgd(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not integer cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.trunc(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}S$${dollars.toLocaleString('en-US')}.${rest}`;
}

/** Parses a user-typed dollar amount ("12", "12.5", "1,234.50") into cents; null when not a valid amount. */
export function parseSgdToCents(text: string): number | null {
  const clean = text.replace(/[,\s]/g, '').replace(/^S?\$/i, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(clean);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
