import { afterEach, describe, expect, it } from 'vitest';
import { fundLogDirection } from '../../src/app/features/wallet/amount';
import { maskPaynow } from '../../src/shared/schemas/wallet';
import { sgtDay, withdrawalDay } from '../../src/app/features/wallet/withdraw-day';
import { formatDate, formatDateTime, formatSigned, formatTons } from '../../src/app/lib/format';
import { i18n } from '../../src/app/lib/i18n';

// The logic behind UX defects a new user would meet (the layout ones are in tests/e2e/ux.spec.ts).

/** A moment in Singapore time: `sgt('2026-11-23T10:00')`. */
const sgt = (local: string) => Date.parse(`${local}:00+08:00`);

describe('withdrawal day: said up front, with the next possible day', () => {
  it('reads the Singapore day, not the UTC one', () => {
    expect(sgtDay(sgt('2026-11-24T00:30'))).toEqual({ date: '2026-11-24', weekday: 2 });
    expect(sgtDay(sgt('2026-11-23T23:59'))).toEqual({ date: '2026-11-23', weekday: 1 });
  });

  it('is open on a working day before any withdrawal', () => {
    expect(withdrawalDay(sgt('2026-11-24T10:00'), { withdrawnToday: false })).toMatchObject({ block: null, next: '2026-11-24' });
  });

  it('after today\u2019s withdrawal names the next working day', () => {
    expect(withdrawalDay(sgt('2026-11-24T10:00'), { withdrawnToday: true })).toMatchObject({ block: 'done_today', next: '2026-11-25' });
    // Friday's withdrawal: next is Monday.
    expect(withdrawalDay(sgt('2026-11-27T16:00'), { withdrawnToday: true })).toMatchObject({ block: 'done_today', next: '2026-11-30' });
  });

  it('on a weekend names Monday, or the day after a Monday holiday', () => {
    expect(withdrawalDay(sgt('2026-11-28T10:00'), { withdrawnToday: false })).toMatchObject({ block: 'weekend', next: '2026-11-30' });
    expect(withdrawalDay(sgt('2026-11-29T23:00'), { withdrawnToday: false, holidays: ['2026-11-30'] })).toMatchObject({ block: 'weekend', next: '2026-12-01' });
  });

  it('on a public holiday says so and skips the following holidays and weekend', () => {
    // Christmas 2026 is a Friday; with the Monday after also a holiday, the next day is Tuesday 29 Dec.
    const day = withdrawalDay(sgt('2026-12-25T09:00'), { withdrawnToday: false, holidays: ['2026-12-25', '2026-12-28'] });
    expect(day).toMatchObject({ block: 'holiday', next: '2026-12-29' });
    expect(sgtDay(day.nextMs).date).toBe('2026-12-29');
  });
});

describe('fund logs: a booking fee is money out, never a green "+"', () => {
  it('the pre-sale side of a booking is held, the available side out', () => {
    expect(fundLogDirection({ kind: 'presale_booking', account_name: 'presale', amount: 1000 })).toBe('held');
    expect(fundLogDirection({ kind: 'presale_booking', account_name: 'available', amount: -1000 })).toBe('out');
  });

  it('so are the frozen sides of a withdrawal and of a freeze; real money in stays "in"', () => {
    expect(fundLogDirection({ kind: 'withdrawal_apply', account_name: 'frozen', amount: 10_200 })).toBe('held');
    expect(fundLogDirection({ kind: 'lock_freeze', account_name: 'frozen', amount: 500 })).toBe('held');
    expect(fundLogDirection({ kind: 'topup', account_name: 'available', amount: 25_000 })).toBe('in');
    expect(fundLogDirection({ kind: 'withdrawal_refuse', account_name: 'available', amount: 10_200 })).toBe('in');
    expect(fundLogDirection({ kind: 'sale_settlement', account_name: 'available', amount: 4_000 })).toBe('in');
  });
});

describe('PayNow numbers are masked as bank account numbers are', () => {
  it('shows only the last 4 characters', () => {
    expect(maskPaynow('91234567', 'mobile')).toBe('+65 ****4567');
    expect(maskPaynow('+6591234567', 'mobile')).toBe('+65 ****4567');
    expect(maskPaynow('201912345K', 'uen')).toBe('******345K');
    expect(maskPaynow('91234567')).not.toContain('9123');
  });
});

describe('units and dates in Chinese', () => {
  afterEach(() => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
  });

  it('tons are "t" in English and "吨" in Chinese, never broken from their number', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(formatTons(1250)).toBe('1,250\u00a0t');
    expect(formatSigned(-3, 'tons')).toBe('\u22123\u00a0t');
    i18n.loadAndActivate({ locale: 'zh-Hans', messages: {} });
    expect(formatTons(1250)).toBe('1,250\u00a0吨');
    expect(formatSigned(3, 'tons')).toBe('+3\u00a0吨');
  });

  it('a date is the Singapore day, as Intl.DateTimeFormat writes it in either language (without Intl), with "Sep" among three-letter months', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(formatDate(sgt('2026-09-04T00:30'))).toBe('4 Sep 2026');
    expect(formatDate(sgt('2026-11-23T23:59'))).toBe('23 Nov 2026');
    i18n.loadAndActivate({ locale: 'zh-Hans', messages: {} });
    expect(formatDate(sgt('2026-11-24T00:30'))).toBe('2026年11月24日');
    const opts = { timeZone: 'Asia/Singapore', year: 'numeric', month: 'short', day: 'numeric' } as const;
    for (const [locale, tag] of [['en', 'en-SG'], ['zh-Hans', 'zh-Hans-SG']] as const) {
      i18n.loadAndActivate({ locale, messages: {} });
      const intl = new Intl.DateTimeFormat(tag, opts);
      for (let day = 0; day < 800; day += 7) {
        const ms = Date.UTC(2025, 0, 1) + day * 86_400_000 + (day % 24) * 3_600_000;
        expect(formatDate(ms)).toBe(intl.format(ms).replace('Sept', 'Sep'));
      }
    }
  });

  it('one clock in English: "9:05 am", "2:30 pm", no leading zero, the am not breakable from the time', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(formatDateTime(sgt('2026-11-24T09:05'))).toBe('24 Nov 2026, 9:05\u00a0am');
    expect(formatDateTime(sgt('2026-11-24T14:30'))).toBe('24 Nov 2026, 2:30\u00a0pm');
    expect(formatDateTime(sgt('2026-11-24T00:10'))).toBe('24 Nov 2026, 12:10\u00a0am');
    expect(formatDateTime(sgt('2026-09-01T12:00'))).toBe('1 Sep 2026, 12:00\u00a0pm');
  });

  it('a date and time in Chinese is a 24-hour clock, without 上午/下午', () => {
    i18n.loadAndActivate({ locale: 'zh-Hans', messages: {} });
    const text = formatDateTime(sgt('2026-11-24T14:05'));
    expect(text).toContain('2026年11月24日');
    expect(text).toContain('14:05');
    expect(text).not.toMatch(/上午|下午/);
  });
});
