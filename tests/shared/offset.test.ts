// The monthly offset's calendar and consent text (src/shared/offset.ts), shared by the app and the server.
import { describe, expect, it } from 'vitest';
import { firstDueAt, nextMonth, offsetConsentText, offsetDueAt, sgtMonth, suggestedMonthlyTons } from '../../src/shared/offset';

const sgt = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 8, min);

describe('monthly offset calendar (SGT)', () => {
  it('falls due at 09:00 SGT on the day, or on a shorter month\'s last day', () => {
    expect(offsetDueAt('2026-03', 5)).toBe(sgt(2026, 3, 5, 9));
    expect(offsetDueAt('2026-04', 31)).toBe(sgt(2026, 4, 30, 9));
    expect(offsetDueAt('2026-02', 29)).toBe(sgt(2026, 2, 28, 9));
    expect(offsetDueAt('2028-02', 30)).toBe(sgt(2028, 2, 29, 9));
    expect(offsetDueAt('2026-12', 31)).toBe(sgt(2026, 12, 31, 9));
  });

  it('reads months in SGT, across the year', () => {
    expect(sgtMonth(sgt(2026, 3, 31, 23, 59))).toBe('2026-03');
    expect(sgtMonth(sgt(2026, 4, 1, 0, 0))).toBe('2026-04');
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(nextMonth('2026-09')).toBe('2026-10');
  });

  it('starts this month while the day is ahead, else next month', () => {
    expect(firstDueAt(sgt(2026, 3, 5, 8, 59), 5)).toBe(sgt(2026, 3, 5, 9));
    expect(firstDueAt(sgt(2026, 3, 5, 9, 1), 5)).toBe(sgt(2026, 4, 5, 9));
    expect(firstDueAt(sgt(2026, 1, 31, 10), 31)).toBe(sgt(2026, 2, 28, 9));
  });

  it('suggests a twelfth of the yearly footprint, rounded up to a whole ton', () => {
    expect(suggestedMonthlyTons(12_700)).toBe(2);
    expect(suggestedMonthlyTons(12_000)).toBe(1);
    expect(suggestedMonthlyTons(12_001)).toBe(2);
    expect(suggestedMonthlyTons(0)).toBe(1);
  });

  it('says the consent in both languages with the tons, project and day', () => {
    const en = offsetConsentText('en', { tons: 2, project: 'Rimba Raya', day: 31 });
    expect(en).toContain('2 t of "Rimba Raya"');
    expect(en).toContain("the month's last day");
    const cn = offsetConsentText('cn', { tons: 2, project: '林巴拉亚', day: 5 });
    expect(cn).toContain('「林巴拉亚」2 吨');
    expect(cn).toContain('每月 5 日');
  });
});
