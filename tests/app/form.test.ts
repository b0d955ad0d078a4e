import { describe, expect, it } from 'vitest';
import type * as v from 'valibot';
import { fieldA11y, issueMessage, validate } from '../../src/app/lib/form';
import { emailSchema, loginSchema, registerSchema, resetSchema, sendCodeSchema } from '../../src/shared/schemas/auth';
import { ERRORS, REQUIRED_FIELD_MESSAGES, errorMessage, type Lang } from '../../src/shared/errors';

// The client forms validate with the shared schemas; these cases cover the rules of
// docs/product.md#validation that the login, register and reset forms apply, each with valid and invalid
// inputs, in English and Chinese.

const LANGS: Lang[] = ['en', 'cn'];

const goodRegister = {
  email: 'New.User@Example.com',
  code: '123456',
  password: 'Canopy2026',
  repassword: 'Canopy2026',
  invite_code: '',
  type: 'personal' as const,
  company: '',
  uen: '',
  agree: true,
};

const goodLogin = { email: 'demo@canopy.sg', password: 'Canopy2026', type: 'personal' as const, agree: true };
const goodReset = { email: 'demo@canopy.sg', code: '654321', password: 'NewPass2026', repassword: 'NewPass2026' };

/** The single error a form shows for one field, after validating `values` in `lang`. */
function errorOf(schema: v.GenericSchema, values: unknown, field: string, lang: Lang = 'en') {
  const result = validate(schema, values, lang);
  expect(result.ok).toBe(false);
  return result.errors[field];
}

describe('validate()', () => {
  it('answers the parsed output when every rule holds', () => {
    const result = validate(registerSchema, goodRegister, 'en');
    expect(result.ok).toBe(true);
    expect(result.errors).toEqual({});
    // Output is what the server would receive: trimmed, lower-cased email, agree as a boolean.
    expect(result.output).toMatchObject({ email: 'new.user@example.com', agree: true, type: 'personal' });
  });

  it('gives one message per field, the first rule broken', () => {
    const result = validate(registerSchema, { ...goodRegister, email: '', code: 'x', password: 'short' }, 'en');
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual({
      email: REQUIRED_FIELD_MESSAGES.email!.en,
      code: ERRORS.code_format.en,
      password: ERRORS.login_password_weak.en,
    });
  });

  it('uses the app language by default (en when nothing is stored)', () => {
    expect(validate(emailSchema, 'nope').errors['']).toBe(ERRORS.email_invalid.en);
  });

  it('falls back to a generic message for a message that is not a catalogue key', () => {
    const issue = { kind: 'validation', type: 'check', input: 1, expected: null, received: '1', message: 'not a key' } as v.BaseIssue<unknown>;
    expect(issueMessage(issue, 'en')).toBe(ERRORS.invalid_request.en);
    expect(issueMessage(issue, 'cn')).toBe(ERRORS.invalid_request.cn);
  });
});

describe.each(LANGS)('validation rules of the auth forms (%s)', (lang) => {
  const msg = (key: keyof typeof ERRORS, params?: Record<string, number>) => errorMessage(key, lang, params);

  describe('email format', () => {
    it.each(['demo@canopy.sg', '  Demo@Canopy.SG  ', 'first.last+tag@sub.example.com'])('accepts %j', (email) => {
      const result = validate(loginSchema, { ...goodLogin, email }, lang);
      expect(result.ok).toBe(true);
      expect(result.output?.email).toBe(email.trim().toLowerCase());
    });
    it.each(['demo', 'demo@', '@canopy.sg', 'demo@canopy', 'de mo@canopy.sg', 'demo@@canopy.sg'])('rejects %j', (email) => {
      expect(errorOf(loginSchema, { ...goodLogin, email }, 'email', lang)).toBe(msg('email_invalid'));
      expect(errorOf(registerSchema, { ...goodRegister, email }, 'email', lang)).toBe(msg('email_invalid'));
      expect(errorOf(resetSchema, { ...goodReset, email }, 'email', lang)).toBe(msg('email_invalid'));
      expect(errorOf(sendCodeSchema, { email, scene: 'register' }, 'email', lang)).toBe(msg('email_invalid'));
    });
    it('sendcode accepts a valid email for both scenes', () => {
      expect(validate(sendCodeSchema, { email: 'a@b.sg', scene: 'register' }, lang).ok).toBe(true);
      expect(validate(sendCodeSchema, { email: 'a@b.sg', scene: 'reset' }, lang).ok).toBe(true);
    });
  });

  describe('verification code format (6 digits)', () => {
    it.each(['123456', '000000', ' 987654 '])('accepts %j', (code) => {
      expect(validate(registerSchema, { ...goodRegister, code }, lang).ok).toBe(true);
      expect(validate(resetSchema, { ...goodReset, code }, lang).ok).toBe(true);
    });
    it.each(['12345', '1234567', 'abcdef', '12 456', '12345a'])('rejects %j', (code) => {
      expect(errorOf(registerSchema, { ...goodRegister, code }, 'code', lang)).toBe(msg('code_format'));
      expect(errorOf(resetSchema, { ...goodReset, code }, 'code', lang)).toBe(msg('code_format'));
    });
  });

  describe('invitation code format (optional, 6 letters or digits)', () => {
    it.each([
      ['', ''],
      ['AB12CD', 'AB12CD'],
      ['ab12cd', 'AB12CD'],
      ['123456', '123456'],
      [' ZZZZZZ ', 'ZZZZZZ'],
    ])('accepts %j', (invite_code, expected) => {
      const result = validate(registerSchema, { ...goodRegister, invite_code }, lang);
      expect(result.ok).toBe(true);
      expect(result.output?.invite_code).toBe(expected);
    });
    it('accepts a missing invitation code', () => {
      const { invite_code: _omit, ...rest } = goodRegister;
      expect(validate(registerSchema, rest, lang).ok).toBe(true);
    });
    it.each(['ABC12', 'ABCDEFG', 'AB-12C', 'AB 12C', '中文中文中文'])('rejects %j', (invite_code) => {
      expect(errorOf(registerSchema, { ...goodRegister, invite_code }, 'invite_code', lang)).toBe(msg('invite_format'));
    });
  });

  describe('login password (>= 8 characters with digits, uppercase and lowercase)', () => {
    it.each(['Canopy2026', 'Abcdefg1', 'aB3aB3aB3aB3', 'P@ssw0rd!!'])('accepts %j', (password) => {
      expect(validate(registerSchema, { ...goodRegister, password, repassword: password }, lang).ok).toBe(true);
      expect(validate(resetSchema, { ...goodReset, password, repassword: password }, lang).ok).toBe(true);
    });
    it.each([
      ['Abcdef1', 'too short (7)'],
      ['abcdefg1', 'no uppercase'],
      ['ABCDEFG1', 'no lowercase'],
      ['Abcdefgh', 'no digit'],
      ['12345678', 'digits only'],
    ])('rejects %j (%s)', (password) => {
      expect(errorOf(registerSchema, { ...goodRegister, password, repassword: password }, 'password', lang)).toBe(msg('login_password_weak'));
      expect(errorOf(resetSchema, { ...goodReset, password, repassword: password }, 'password', lang)).toBe(msg('login_password_weak'));
    });
    it('login only requires a password (the server checks it), weak ones included', () => {
      expect(validate(loginSchema, { ...goodLogin, password: 'abc' }, lang).ok).toBe(true);
    });
  });

  describe('repeated password must match', () => {
    it('accepts an identical repeat', () => {
      expect(validate(registerSchema, goodRegister, lang).ok).toBe(true);
      expect(validate(resetSchema, goodReset, lang).ok).toBe(true);
    });
    it.each(['Canopy2027', 'canopy2026', 'Canopy2026 '])('rejects %j', (repassword) => {
      expect(errorOf(registerSchema, { ...goodRegister, repassword }, 'repassword', lang)).toBe(msg('password_mismatch'));
      expect(errorOf(resetSchema, { ...goodReset, password: 'Canopy2026', repassword }, 'repassword', lang)).toBe(msg('password_mismatch'));
    });
    it('an empty repeat is a required field', () => {
      expect(errorOf(registerSchema, { ...goodRegister, repassword: '' }, 'repassword', lang)).toBe(REQUIRED_FIELD_MESSAGES.repassword![lang]);
    });
  });

  describe('terms must be agreed before login or registration', () => {
    it.each([true, 'true', '1', 1])('accepts agree = %j', (agree) => {
      expect(validate(loginSchema, { ...goodLogin, agree }, lang).ok).toBe(true);
      expect(validate(registerSchema, { ...goodRegister, agree }, lang).ok).toBe(true);
    });
    it.each([false, undefined, '', '0', 0, 'yes'])('rejects agree = %j', (agree) => {
      expect(errorOf(loginSchema, { ...goodLogin, agree }, 'agree', lang)).toBe(msg('terms_required'));
      expect(errorOf(registerSchema, { ...goodRegister, agree }, 'agree', lang)).toBe(msg('terms_required'));
    });
  });

  describe('required fields cannot be empty', () => {
    it.each(['email', 'password'])('login: %s', (field) => {
      expect(errorOf(loginSchema, { ...goodLogin, [field]: '' }, field, lang)).toBe(REQUIRED_FIELD_MESSAGES[field]![lang]);
    });
    it.each(['email', 'code', 'password', 'repassword'])('register: %s', (field) => {
      expect(errorOf(registerSchema, { ...goodRegister, [field]: '' }, field, lang)).toBe(REQUIRED_FIELD_MESSAGES[field]![lang]);
    });
    it.each(['email', 'code', 'password', 'repassword'])('reset: %s', (field) => {
      expect(errorOf(resetSchema, { ...goodReset, [field]: '' }, field, lang)).toBe(REQUIRED_FIELD_MESSAGES[field]![lang]);
    });
    it('blank (spaces only) counts as empty for trimmed fields', () => {
      expect(errorOf(loginSchema, { ...goodLogin, email: '   ' }, 'email', lang)).toBe(REQUIRED_FIELD_MESSAGES.email![lang]);
      expect(errorOf(registerSchema, { ...goodRegister, code: '   ' }, 'code', lang)).toBe(REQUIRED_FIELD_MESSAGES.code![lang]);
    });
    it('a missing field is required too', () => {
      const { email: _omit, ...rest } = goodLogin;
      expect(errorOf(loginSchema, rest, 'email', lang)).toBe(REQUIRED_FIELD_MESSAGES.email![lang]);
    });
  });

  describe('text input maximum length 140', () => {
    const at = (n: number) => `${'a'.repeat(n - '@canopy.sg'.length)}@canopy.sg`;
    it('accepts 140 characters', () => {
      expect(at(140)).toHaveLength(140);
      expect(validate(loginSchema, { ...goodLogin, email: at(140) }, lang).ok).toBe(true);
      expect(validate(loginSchema, { ...goodLogin, password: 'x'.repeat(140) }, lang).ok).toBe(true);
      expect(validate(registerSchema, { ...goodRegister, type: 'corporate', company: 'C'.repeat(140), uen: '201912345K' }, lang).ok).toBe(true);
    });
    it('rejects 141 characters with the limit in the message', () => {
      const expected = msg('too_long', { n: 140 });
      expect(expected).toContain('140');
      expect(errorOf(loginSchema, { ...goodLogin, email: at(141) }, 'email', lang)).toBe(expected);
      expect(errorOf(loginSchema, { ...goodLogin, password: 'x'.repeat(141) }, 'password', lang)).toBe(expected);
      const long = 'Aa1' + 'x'.repeat(138);
      expect(errorOf(registerSchema, { ...goodRegister, password: long, repassword: long }, 'password', lang)).toBe(expected);
      expect(errorOf(registerSchema, { ...goodRegister, type: 'corporate', company: 'C'.repeat(141), uen: '201912345K' }, 'company', lang)).toBe(expected);
    });
  });

  describe('corporate accounts need a company name and a UEN', () => {
    const corporate = { ...goodRegister, type: 'corporate' as const, company: 'Green Pte Ltd', uen: '201912345K' };
    it.each(['201912345K', '53312345A', 'T09LL0001B', '201912345k'])('accepts UEN %j', (uen) => {
      const result = validate(registerSchema, { ...corporate, uen }, lang);
      expect(result.ok).toBe(true);
      expect(result.output?.uen).toBe(uen.toUpperCase());
    });
    it('a personal account needs neither', () => {
      expect(validate(registerSchema, { ...goodRegister, type: 'personal', company: '', uen: '' }, lang).ok).toBe(true);
    });
    it.each(['', '   '])('rejects company %j', (company) => {
      expect(errorOf(registerSchema, { ...corporate, company }, 'company', lang)).toBe(msg('company_required'));
    });
    it('rejects a missing UEN', () => {
      expect(errorOf(registerSchema, { ...corporate, uen: '' }, 'uen', lang)).toBe(msg('uen_invalid'));
    });
    it.each(['12345', 'ABCDEFGHIJ', '2019123456'])('rejects UEN %j', (uen) => {
      expect(errorOf(registerSchema, { ...corporate, uen }, 'uen', lang)).toBe(msg('uen_invalid'));
    });
  });
});

describe('fieldA11y()', () => {
  it('links an invalid input to its error text', () => {
    expect(fieldA11y('login', 'email', { email: 'Invalid email format.' })).toEqual({
      id: 'login-email',
      name: 'email',
      'aria-invalid': true,
      'aria-describedby': 'login-email-error',
    });
  });
  it('says nothing extra for a valid input', () => {
    expect(fieldA11y('login', 'email', {})).toEqual({ id: 'login-email', name: 'email', 'aria-invalid': undefined, 'aria-describedby': undefined });
  });
});
