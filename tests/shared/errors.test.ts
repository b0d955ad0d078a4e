// The one error catalogue (src/shared/errors.ts): stable unique codes, both languages, matching placeholders.
import { describe, expect, it } from 'vitest';
import { ERRORS, errorKeyOfCode, errorMessage, isErrorKey, type ErrorKey } from '../../src/shared/errors';

const entries = Object.entries(ERRORS) as [ErrorKey, { code: number; en: string; cn: string }][];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('error catalogue', () => {
  it('has unique integer codes', () => {
    const codes = entries.map(([, e]) => e.code);
    expect(codes.every((c) => Number.isInteger(c))).toBe(true);
    const dupes = codes.filter((c, i) => codes.indexOf(c) !== i);
    expect(dupes).toEqual([]);
  });

  it('keeps code < 0 for the session only and code 0 for nobody', () => {
    expect(entries.filter(([, e]) => e.code < 0).map(([k]) => k)).toEqual(['session_expired']);
    expect(entries.filter(([, e]) => e.code === 0)).toEqual([]);
  });

  it('gives every entry a non-empty en and cn text, the cn one in Chinese', () => {
    for (const [key, e] of entries) {
      expect(e.en.trim(), key).not.toBe('');
      expect(e.cn.trim(), key).not.toBe('');
      expect(e.cn, key).toMatch(/[\u4e00-\u9fff]/);
      expect(e.en, key).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('uses the same placeholders in en and cn', () => {
    for (const [key, e] of entries) expect(placeholders(e.cn), key).toEqual(placeholders(e.en));
  });

  it('has the session-expired and network-error messages at their keys', () => {
    expect(ERRORS.session_expired.code).toBe(-1);
    expect(ERRORS.network_error.en).toBe('Network error');
    expect(ERRORS.login_locked.en).toBe('Exceeded maximum password attempts, contact the administrator.');
    expect(ERRORS.bulk_registration.en).toBe('Bulk registration prohibited.');
    expect(ERRORS.below_min_tons.en).toContain('{n}');
  });
});

describe('errorMessage', () => {
  it('answers the text in the language asked', () => {
    expect(errorMessage('login_incorrect', 'en')).toBe(ERRORS.login_incorrect.en);
    expect(errorMessage('login_incorrect', 'cn')).toBe(ERRORS.login_incorrect.cn);
  });

  it('fills placeholders, leaves unknown ones, and ignores extra params', () => {
    expect(errorMessage('too_long', 'en', { n: 140 })).toBe('Text cannot be longer than 140 characters.');
    expect(errorMessage('too_long', 'cn', { n: 140 })).toBe('文字长度不能超过 140 个字符。');
    expect(errorMessage('trade_password_incorrect', 'en', { n: 0 })).toBe('Trading password incorrect. Attempts left: 0.');
    expect(errorMessage('too_long', 'en')).toBe('Text cannot be longer than {n} characters.');
    expect(errorMessage('too_long', 'en', { m: 1 })).toBe('Text cannot be longer than {n} characters.');
    expect(errorMessage('required', 'en', { n: 1 })).toBe(ERRORS.required.en);
    expect(errorMessage('withdraw_below_min', 'en', { n: 'S$50.00' })).toBe('The amount cannot be less than S$50.00.');
    // A replacement containing $ patterns is inserted literally.
    expect(errorMessage('withdraw_below_min', 'en', { n: "$& $' $1" })).toBe("The amount cannot be less than $& $' $1.");
  });

  it('every entry formats in both languages with all its placeholders filled', () => {
    for (const [key, e] of entries) {
      const params = Object.fromEntries(placeholders(e.en).map((p) => [p!, 7]));
      for (const lang of ['en', 'cn'] as const) expect(errorMessage(key, lang, params), `${key} ${lang}`).not.toMatch(/\{\w+\}/);
    }
  });
});

describe('key and code lookups', () => {
  it('isErrorKey knows the keys and nothing inherited', () => {
    expect(isErrorKey('required')).toBe(true);
    expect(isErrorKey('nope')).toBe(false);
    expect(isErrorKey('toString')).toBe(false);
    expect(isErrorKey('__proto__')).toBe(false);
  });

  it('errorKeyOfCode maps every code back to its key', () => {
    for (const [key, e] of entries) expect(errorKeyOfCode(e.code)).toBe(key);
    expect(errorKeyOfCode(999_999)).toBeUndefined();
  });
});
