// The compliance years of Singapore's carbon tax (docs/product.md#singapore-carbon-tax) are Singapore's
// calendar years: a device in another time zone must not offer last year on the first morning of the new one.

/** The tax began to take eligible credits in 2024. */
const FIRST_YEAR = 2024;
// Singapore time has been UTC+8 all year since 1982.
const SGT_OFFSET_MS = 8 * 3600_000;

/** The compliance year in Singapore at `now`. */
export function complianceYear(now: number = Date.now()): number {
  return new Date(now + SGT_OFFSET_MS).getUTCFullYear();
}

/** The years an account can pick: from 2024 to next year, newest first. */
export function complianceYears(now: number = Date.now()): number[] {
  const last = complianceYear(now) + 1;
  return Array.from({ length: Math.max(1, last - FIRST_YEAR + 1) }, (_, i) => last - i);
}
