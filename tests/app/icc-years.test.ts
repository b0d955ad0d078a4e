import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { complianceYear, complianceYears } from '../../src/app/lib/compliance-years';

// The compliance years the cap screen and the retirement form offer (docs/product.md#singapore-carbon-tax):
// Singapore's calendar years, whatever the device's time zone.

let tz: string | undefined;
beforeEach(() => {
  tz = process.env.TZ;
  process.env.TZ = 'UTC';
});
afterEach(() => {
  process.env.TZ = tz;
});

describe('compliance years', () => {
  it('turns at midnight in Singapore, not at the device’s midnight', () => {
    const newYearSgt = Date.parse('2027-01-01T00:30:00+08:00');
    expect(new Date(newYearSgt).getFullYear()).toBe(2026);
    expect(complianceYear(newYearSgt)).toBe(2027);
    expect(complianceYear(Date.parse('2026-12-31T23:59:00+08:00'))).toBe(2026);
  });

  it('offers 2024 up to next year, newest first', () => {
    expect(complianceYears(Date.parse('2027-01-01T00:30:00+08:00'))).toEqual([2028, 2027, 2026, 2025, 2024]);
    expect(complianceYears(Date.parse('2024-06-01T00:00:00+08:00'))).toEqual([2025, 2024]);
  });
});
