import * as v from 'valibot';
import { optionalText } from './common';

// One schema per rule of docs/product.md#validation and docs/product.md#accounts; used by the forms and by
// the server.

export const emailSchema = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(140, 'too_long'),
  v.email('email_invalid'),
  v.toLowerCase(),
);

/** Login password: at least 8 characters with digits, uppercase and lowercase letters. */
export const loginPasswordSchema = v.pipe(
  v.string('required'),
  v.nonEmpty('required'),
  v.maxLength(140, 'too_long'),
  v.minLength(8, 'login_password_weak'),
  v.regex(/\d/, 'login_password_weak'),
  v.regex(/[A-Z]/, 'login_password_weak'),
  v.regex(/[a-z]/, 'login_password_weak'),
);

/** Withdrawal (payment) password: at least 10 characters with digits, upper, lower and a special character. */
export const withdrawalPasswordSchema = v.pipe(
  v.string('required'),
  v.nonEmpty('required'),
  v.maxLength(140, 'too_long'),
  v.minLength(10, 'withdraw_password_weak'),
  v.regex(/\d/, 'withdraw_password_weak'),
  v.regex(/[A-Z]/, 'withdraw_password_weak'),
  v.regex(/[a-z]/, 'withdraw_password_weak'),
  v.regex(/[^A-Za-z0-9]/, 'withdraw_password_weak'),
);

export const verificationCodeSchema = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^\d{6}$/, 'code_format'));

export const inviteCodeSchema = v.pipe(
  v.string('invite_format'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9]{6}$/, 'invite_format'),
);

const IC_WEIGHTS = [2, 7, 6, 5, 4, 3, 2];
/** Check letters by the weighted sum's remainder mod 11, per series; T and G add 4 to the sum, M adds 3. */
const IC_CHECK_LETTERS: Record<string, { offset: number; letters: string }> = {
  S: { offset: 0, letters: 'JZIHGFEDCBA' },
  T: { offset: 4, letters: 'JZIHGFEDCBA' },
  F: { offset: 0, letters: 'XWUTRQPNMLK' },
  G: { offset: 4, letters: 'XWUTRQPNMLK' },
  M: { offset: 3, letters: 'XWUTRQPNJLK' },
};

/** Whether a NRIC/FIN (S, T, F, G or M, 7 digits, a letter) carries the check letter its digits give:
 *  docs/product.md#validation. */
export function icCheckLetterOk(ic: string): boolean {
  const m = /^([STFGM])(\d{7})([A-Z])$/.exec(ic);
  const series = m && IC_CHECK_LETTERS[m[1]!];
  if (!m || !series) return false;
  const sum = [...m[2]!].reduce((acc, d, i) => acc + Number(d) * IC_WEIGHTS[i]!, series.offset);
  return series.letters[sum % 11] === m[3];
}

/** IC number: S, T, F, G or M, 7 digits and the check letter (e.g. S1234567D); a wrong check letter is the
 *  same refusal as a wrong shape, since either way the number is not one the holder has. */
export const icNumberSchema = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^[A-Z]\d{7}[A-Z]$/, 'ic_invalid'), v.check(icCheckLetterOk, 'ic_invalid'));

/** A Singapore number as people paste it from Contacts ("+65 9123 4567", "(65) 9123-4567", "9123 4567"):
 *  the digits, without the country code when one leads a ten-digit number. What is left is checked by
 *  mobileSchema; anything else (letters, a UEN) comes back unchanged. docs/product.md#validation */
export function localMobile(input: string): string {
  if (!/^[\d\s+()\-.]*$/.test(input)) return input;
  const digits = input.replace(/\D/g, '');
  return digits.length === 10 && digits.startsWith('65') ? digits.slice(2) : digits;
}

/** Mobile number: only 8 digits. */
export const mobileSchema = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^\d{8}$/, 'mobile_invalid'));

/** Singapore UEN: 9 or 10 characters, digits and capital letters (business, local company, other entities). */
export const uenSchema = v.pipe(v.string('required'), v.trim(), v.toUpperCase(), v.regex(/^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/, 'uen_invalid'));

const agreeSchema = v.pipe(
  v.union([v.boolean(), v.literal('1'), v.literal('true'), v.literal(1)], 'terms_required'),
  v.transform((x) => x === true || x === '1' || x === 'true' || x === 1),
  v.literal(true, 'terms_required'),
);

export const loginTypeSchema = v.picklist(['personal', 'corporate'], 'invalid_request');

export const sendCodeSchema = v.object({
  email: emailSchema,
  scene: v.picklist(['register', 'reset'], 'invalid_request'),
});

export const registerSchema = v.pipe(
  v.object({
    email: emailSchema,
    code: verificationCodeSchema,
    password: loginPasswordSchema,
    repassword: v.pipe(v.string('required'), v.nonEmpty('required')),
    invite_code: v.optional(v.union([v.literal(''), inviteCodeSchema], 'invite_format'), ''),
    type: v.optional(loginTypeSchema, 'personal'),
    company: optionalText(),
    uen: v.optional(v.union([v.literal(''), uenSchema], 'uen_invalid'), ''),
    agree: v.optional(agreeSchema, false),
  }),
  v.forward(
    v.partialCheck([['password'], ['repassword']], (x) => x.password === x.repassword, 'password_mismatch'),
    ['repassword'],
  ),
  v.forward(
    v.partialCheck([['type'], ['company']], (x) => x.type !== 'corporate' || x.company.length > 0, 'company_required'),
    ['company'],
  ),
  v.forward(
    v.partialCheck([['type'], ['uen']], (x) => x.type !== 'corporate' || x.uen.length > 0, 'uen_invalid'),
    ['uen'],
  ),
);

export const loginSchema = v.object({
  email: emailSchema,
  password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  type: v.optional(loginTypeSchema, 'personal'),
  agree: v.optional(agreeSchema, false),
});

export const resetSchema = v.pipe(
  v.object({
    email: emailSchema,
    code: verificationCodeSchema,
    password: loginPasswordSchema,
    repassword: v.pipe(v.string('required'), v.nonEmpty('required')),
  }),
  v.forward(
    v.partialCheck([['password'], ['repassword']], (x) => x.password === x.repassword, 'password_mismatch'),
    ['repassword'],
  ),
);


/** What login and register answer with; stored locally as the login info of docs/product.md#entities. */
export const loginInfoSchema = v.strictObject({
  token: v.pipe(v.string(), v.description('Send as the Authorization header')),
  mem_id: v.pipe(v.number(), v.integer(), v.description('0 for a visitor')),
  realname: v.string(),
  account: v.string(),
  mobile: v.string(),
  avatar: v.string(),
  type: v.picklist(['personal', 'corporate', 'visitor']),
  expires_at: v.pipe(v.number(), v.integer(), v.description('Epoch milliseconds')),
});
export type LoginInfo = v.InferOutput<typeof loginInfoSchema>;

/** GET login/baseconfig: the app's start-up settings. */
export const baseConfigSchema = v.strictObject({
  version: v.string(),
  socket_host: v.pipe(v.string(), v.description('The live socket URL (ws:// or wss://)')),
  socket_version: v.pipe(v.number(), v.integer()),
  currency: v.literal('SGD'),
  server_time: v.pipe(v.string(), v.description('ISO 8601 time in SGT (+08:00)')),
  server_time_ms: v.pipe(v.number(), v.integer(), v.description('Epoch milliseconds')),
  registration_open: v.boolean(),
  support_email: v.pipe(v.string(), v.description('Where members write for help only an operator can give (a forgotten payment password)')),
  company: v.pipe(
    v.strictObject({ name: v.string(), uen: v.string(), address: v.string() }),
    v.description('The one legal entity: the seller on receipts, the payee of the PayNow QR, the company the About page names'),
  ),
  limits: v.strictObject({
    withdraw_min: v.pipe(v.number(), v.integer(), v.description('Cents')),
    withdraw_max: v.pipe(v.number(), v.integer(), v.description('Cents')),
    withdraw_fee: v.pipe(v.number(), v.integer(), v.description('Cents')),
    withdraw_fee_bp: v.pipe(v.number(), v.integer(), v.description('Basis points')),
    topup_min: v.pipe(v.number(), v.integer(), v.description('Cents')),
    presale_fee_bp: v.pipe(v.number(), v.integer(), v.description('Basis points')),
    settlement_working_days: v.pipe(v.number(), v.integer()),
    public_holidays: v.pipe(v.array(v.string()), v.description('Singapore public holidays, YYYY-MM-DD')),
  }),
});
export type BaseConfig = v.InferOutput<typeof baseConfigSchema>;
