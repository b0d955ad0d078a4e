import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { loginPasswordRules, withdrawPasswordRules } from '../../src/app/features/account/password-rules';
import { keepsIntentKey } from '../../src/app/lib/intent-key';
import { loginPasswordSchema, withdrawalPasswordSchema } from '../../src/shared/schemas/auth';
import { ERRORS } from '../../src/shared/errors';

// The strength checklists tick exactly when the shared schema (what the server enforces) accepts the
// password; and the Idempotency-Key of an intent is kept only while a retry may still be needed.

const chars = fc.constantFrom(...'aBz9Z0!@ #xY_-é'.split(''));
const password = fc.string({ unit: chars, maxLength: 16 });

describe('payment password checklist', () => {
  it('all strength rules met exactly when the shared schema accepts it', () => {
    fc.assert(
      fc.property(password, (pw) => {
        const strength = withdrawPasswordRules(pw, '').filter((r) => r.rule !== 'differs');
        expect(strength.every((r) => r.met)).toBe(v.is(withdrawalPasswordSchema, pw));
      }),
      { numRuns: 2000 },
    );
  });

  it('ticks rule by rule as the user types', () => {
    const met = (pw: string, login = '') =>
      withdrawPasswordRules(pw, login)
        .filter((r) => r.met)
        .map((r) => r.rule);
    expect(met('')).toEqual([]);
    expect(met('a')).toEqual(['lower']);
    expect(met('aB')).toEqual(['upper', 'lower']);
    expect(met('aB3')).toEqual(['digit', 'upper', 'lower']);
    expect(met('aB3!')).toEqual(['digit', 'upper', 'lower', 'special']);
    expect(met('aB3!aB3!aB')).toEqual(['length', 'digit', 'upper', 'lower', 'special']);
  });

  it('"differs from the login password" holds only once both are typed and differ', () => {
    const differs = (pw: string, login: string) => withdrawPasswordRules(pw, login).find((r) => r.rule === 'differs')!.met;
    expect(differs('Forest2026!!', '')).toBe(false);
    expect(differs('Forest2026!!', 'Forest2026!!')).toBe(false);
    expect(differs('Forest2026!!', 'Forest2026ok')).toBe(true);
  });
});

describe('login password checklist', () => {
  it('all rules met exactly when the shared schema accepts it', () => {
    fc.assert(
      fc.property(password, (pw) => {
        expect(loginPasswordRules(pw).every((r) => r.met)).toBe(v.is(loginPasswordSchema, pw));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('Idempotency-Key of an intent', () => {
  it('is kept after a transport failure or while the server is still working on it', () => {
    for (const code of [1, 2, 3, 4, 500, 502, 503]) expect(keepsIntentKey(code)).toBe(true);
    expect(keepsIntentKey(ERRORS.idempotency_in_progress.code)).toBe(true);
  });

  it('is renewed after a success, a business refusal or a lost session', () => {
    for (const code of [
      0,
      -1,
      ERRORS.insufficient_balance.code,
      ERRORS.trade_password_incorrect.code,
      ERRORS.withdraw_weekend.code,
      ERRORS.idempotency_mismatch.code,
    ]) {
      expect(keepsIntentKey(code)).toBe(false);
    }
  });
});
