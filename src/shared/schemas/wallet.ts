import * as v from 'valibot';
import { TOPUP_REFERENCE_PATTERN } from '../paynow';
import { icNumberSchema, loginPasswordSchema, mobileSchema, uenSchema, withdrawalPasswordSchema } from './auth';
import { epochMs, int, intFromInput, isoTime, optionalText, paged, pageSchema, requiredText } from './common';

// Wallet and account-settings input (docs/product.md#validation), used by the forms and by the server. Every
// message is an error catalogue key. Money is integer cents; the client converts typed dollars with
// parseSgdToCents.

/** Largest amount any money field accepts (S$1,000,000,000.00): far above every limit, far below 2^53. */
export const AMOUNT_MAX_CENTS = 100_000_000_000;

const amountSchema = v.pipe(intFromInput('invalid_amount'), v.minValue(1, 'invalid_amount'), v.maxValue(AMOUNT_MAX_CENTS, 'invalid_amount'));
const passwordInput = v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long'));

// ---- Account settings (/api/user/...) ----

/** POST /api/user/withdpwd: set or change the withdrawal (payment) password. */
export const withdrawPasswordSetSchema = v.pipe(
  v.object({
    password: withdrawalPasswordSchema,
    repassword: passwordInput,
    login_password: passwordInput,
    // The current payment password: required (by the server) to change one that exists.
    old_password: v.optional(v.pipe(v.string('required'), v.maxLength(140, 'too_long')), ''),
  }, 'required'),
  v.forward(
    v.check((x) => x.password === x.repassword, 'password_mismatch'),
    ['repassword'],
  ),
);

/** POST /api/user/loginpwd: change the login password. */
export const loginPasswordChangeSchema = v.pipe(
  v.object({
    old_password: passwordInput,
    password: loginPasswordSchema,
    repassword: passwordInput,
  }, 'required'),
  v.forward(
    v.check((x) => x.password === x.repassword, 'password_mismatch'),
    ['repassword'],
  ),
);

/** POST /api/user/profile: personal information. The name is what bank holder names are checked against. */
export const profileSchema = v.object({
  first_name: requiredText(60),
  last_name: requiredText(60),
  mobile: mobileSchema,
  ic_number: icNumberSchema,
}, 'required');

const MOBILE = /^\d{8}$/;

/** A PayNow mobile number ("+65 ****5678") or UEN ("******345K") as every screen and record shows it: all
 *  but its last 4 characters hidden, so a payout number is never read off a screen over a shoulder (bank
 *  account numbers are masked the same way). The type is read from the number when not given. */
export function maskPaynow(paynow: string, type: 'mobile' | 'uen' | '' = ''): string {
  const plain = paynow.replace(/\s+/g, '');
  const kind = type || paynowType(plain.replace(/^\+?65(?=\d{8}$)/, '')) || '';
  const digits = kind === 'mobile' ? plain.replace(/^\+?65(?=\d{8}$)/, '') : plain;
  const masked = digits.length <= 4 ? digits : '*'.repeat(digits.length - 4) + digits.slice(-4);
  return kind === 'mobile' ? `+65 ${masked}` : masked;
}

/** 'mobile' for an 8-digit number, 'uen' for a UEN, null otherwise. */
export function paynowType(value: string): 'mobile' | 'uen' | null {
  if (MOBILE.test(value)) return 'mobile';
  return v.is(uenSchema, value) ? 'uen' : null;
}

/** POST /api/user/card: bind or change the payout account. A bank account (name + number), a PayNow
 *  number, or both; the holder name always. The POST replaces the whole binding. */
export const bankCardSchema = v.pipe(
  v.object({
    bank_name: optionalText(60),
    account_no: v.optional(
      v.pipe(
        v.string('account_no_invalid'),
        v.transform((x) => x.replace(/[\s-]/g, '')),
        v.check((x) => x === '' || /^\d{6,20}$/.test(x), 'account_no_invalid'),
      ),
      '',
    ),
    holder_name: requiredText(),
    // Once a payment password is set, changing where money goes needs it (checked by the server).
    password: v.optional(v.pipe(v.string('invalid_request'), v.maxLength(140, 'too_long')), ''),
    paynow: v.optional(
      v.pipe(
        v.string('paynow_invalid'),
        v.transform((x) => x.replace(/\s/g, '').toUpperCase()),
        v.check((x) => x === '' || paynowType(x) !== null, 'paynow_invalid'),
      ),
      '',
    ),
  }, 'required'),
  v.forward(
    v.check((x) => x.bank_name !== '' || x.account_no !== '' || x.paynow !== '', 'bank_or_paynow_required'),
    ['bank_name'],
  ),
  v.forward(
    v.check((x) => x.account_no === '' || x.bank_name !== '', 'required'),
    ['bank_name'],
  ),
  v.forward(
    v.check((x) => x.bank_name === '' || x.account_no !== '', 'required'),
    ['account_no'],
  ),
);

/** Names compare case-insensitively with runs of spaces collapsed ("  alex   TAN " equals "Alex Tan"). */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A name's parts, sorted: banks write a name surname first or last, in capitals, hyphenated or not
 *  ("TAN MEI-LING" and "Mei Ling Tan" have the parts mei, ling, tan). docs/product.md#withdrawals */
function nameParts(name: string): string {
  return normalizeName(name)
    .split(/[\s,-]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** The same person's name: the same parts, each as often, in any order; case, spacing, commas and hyphens
 *  aside. A part missing or added ("Mei Tan", "Mei Ling Tan Jr") is another name. */
export function sameName(a: string, b: string): boolean {
  const parts = nameParts(a);
  return parts !== '' && parts === nameParts(b);
}

// ---- Wallet (/api/wallet/...) ----

export const TOPUP_METHODS = ['paynow', 'bank'] as const;
export const TOPUP_STATUSES = ['pending', 'credited', 'rejected'] as const;
export const TOPUP_FLAGS = ['', 'amount', 'late', 'double', 'manual'] as const;
export const WITHDRAWAL_STATUSES = ['processing', 'refused', 'completed'] as const;
export const PAYOUT_METHODS = ['bank', 'paynow'] as const;

export type TopupStatus = (typeof TOPUP_STATUSES)[number];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** A top-up reference a client may choose (docs/decisions/0014-paynow.md; else the server assigns one): sent,
 *  it must not be blank; it is read upper case with spaces dropped, and must then have the server's own
 *  shape, "CNP" and 12 characters of its alphabet (TOPUP_REFERENCE_PATTERN): a free choice could be a word
 *  every bank line carries and catch other people's payments. */
export const topupReferenceSchema = v.pipe(
  requiredText(),
  v.transform((x) => x.replace(/\s+/g, '').toUpperCase()),
  v.regex(TOPUP_REFERENCE_PATTERN, 'topup_reference_invalid'),
);

export const topupSchema = v.object({
  amount: amountSchema,
  method: v.picklist(TOPUP_METHODS, 'invalid_request'),
  reference: v.optional(topupReferenceSchema),
}, 'required');

export const withdrawSchema = v.object({
  amount: amountSchema,
  password: passwordInput,
  /** Where the money goes; default: the bound bank account, else the bound PayNow. */
  method: v.optional(v.picklist(PAYOUT_METHODS, 'invalid_request')),
}, 'required');

export const topupListQuery = v.object({
  ...pageSchema.entries,
  status: v.optional(v.picklist([...TOPUP_STATUSES, ''], 'invalid_request'), ''),
});

export const withdrawalListQuery = v.object({
  ...pageSchema.entries,
  status: v.optional(v.picklist([...WITHDRAWAL_STATUSES, ''], 'invalid_request'), ''),
});

/** Fund log kinds written by the wallet; the marketplace adds its own (the filter accepts any kind name). */
export const WALLET_FUND_LOG_KINDS = ['topup', 'withdrawal_apply', 'withdrawal_complete', 'withdrawal_refuse', 'lock_freeze', 'lock_unfreeze'] as const;

export const fundLogQuery = v.object({
  ...pageSchema.entries,
  kind: v.optional(v.pipe(v.string('invalid_request'), v.regex(/^([a-z_]{1,40})?$/, 'invalid_request')), ''),
});

// ---- What the API answers (the types are inferred from these schemas, written once) ----

/** POST /api/user/profile answers the stored personal information. */
export const profileViewSchema = v.strictObject({
  first_name: v.string(),
  last_name: v.string(),
  realname: v.string(),
  mobile: v.string(),
  ic_number: v.string(),
});
export type ProfileView = v.InferOutput<typeof profileViewSchema>;

export const bankCardViewSchema = v.strictObject({
  bank_name: v.pipe(v.string(), v.description("'' when only PayNow is bound")),
  account_no: v.pipe(v.string(), v.description("Masked: every digit but the last 4 is '*'")),
  account_last4: v.string(),
  holder_name: v.string(),
  paynow: v.pipe(v.string(), v.description("'' when none")),
  paynow_type: v.picklist(['mobile', 'uen', '']),
  updated_at: isoTime(),
  updated_at_ms: epochMs(),
});
export type BankCard = v.InferOutput<typeof bankCardViewSchema>;

export const topupRecordSchema = v.strictObject({
  id: int(),
  amount: v.pipe(int(), v.description('Cents')),
  method: v.picklist(TOPUP_METHODS),
  reference: v.string(),
  status: v.picklist(TOPUP_STATUSES),
  note: v.pipe(v.string(), v.description("The operator's reason on a rejection")),
  created_at: isoTime(),
  created_at_ms: epochMs(),
  decided_at: v.nullable(isoTime()),
  decided_at_ms: v.nullable(epochMs()),
  // PayNow QR, expiry and reconciliation (docs/decisions/0014-paynow.md).
  paynow_qr: v.pipe(v.nullable(v.string()), v.description('The PayNow QR payload (SGQR) of a PayNow top-up; null for a bank transfer or a top-up from before QRs')),
  expires_at: v.pipe(v.nullable(isoTime()), v.description('When the request stops being payable; null for top-ups from before expiries')),
  expires_at_ms: v.nullable(epochMs()),
  received_amount: v.pipe(v.nullable(int()), v.description('Cents the bank statement brought (credited); null until matched')),
  flag: v.pipe(v.picklist(TOPUP_FLAGS), v.description("Why a credited top-up differs: '' exact, amount, late, double (second payment under first_topup_id's reference), manual")),
  first_topup_id: v.nullable(int()),
});
export type TopupRecord = v.InferOutput<typeof topupRecordSchema>;
export const topupPageSchema = paged(topupRecordSchema);

export const withdrawalRecordSchema = v.strictObject({
  id: int(),
  amount: v.pipe(int(), v.description('Cents the user receives')),
  fee: v.pipe(int(), v.description('Handling fee, cents')),
  total: v.pipe(int(), v.description('amount + fee: what left the available balance')),
  method: v.picklist(PAYOUT_METHODS),
  bank_name: v.string(),
  account_no: v.pipe(v.string(), v.description('Masked')),
  holder_name: v.string(),
  paynow: v.string(),
  status: v.picklist(WITHDRAWAL_STATUSES),
  note: v.pipe(v.string(), v.description("The operator's reason on a refusal")),
  created_at: isoTime(),
  created_at_ms: epochMs(),
  decided_at: v.nullable(isoTime()),
  decided_at_ms: v.nullable(epochMs()),
});
export type WithdrawalRecord = v.InferOutput<typeof withdrawalRecordSchema>;
export const withdrawalPageSchema = paged(withdrawalRecordSchema);

export const fundLogRowSchema = v.strictObject({
  id: int(),
  entry_id: int(),
  kind: v.string(),
  account_name: v.pipe(v.string(), v.description('available, frozen, presale, unavailable or credits')),
  unit: v.picklist(['cents', 'tons']),
  amount: v.pipe(int(), v.description('Signed')),
  balance_after: int(),
  memo: v.string(),
  ref_type: v.string(),
  ref_id: int(),
  order_no: v.pipe(v.nullable(v.string()), v.description('The order a line belongs to (ref_type order); null otherwise')),
  project_id: v.pipe(v.nullable(int()), v.description("That order's or retirement's project; null otherwise")),
  project_name: v.nullable(v.string()),
  project_name_cn: v.nullable(v.string()),
  created_at: isoTime(),
  created_at_ms: epochMs(),
});
export type FundLogRow = v.InferOutput<typeof fundLogRowSchema>;
export const fundLogPageSchema = paged(fundLogRowSchema);

export const notificationItemSchema = v.strictObject({
  id: int(),
  title: v.string(),
  title_cn: v.string(),
  body: v.string(),
  body_cn: v.string(),
  created_at: isoTime(),
  created_at_ms: epochMs(),
  read: v.boolean(),
});
export type NotificationItem = v.InferOutput<typeof notificationItemSchema>;

