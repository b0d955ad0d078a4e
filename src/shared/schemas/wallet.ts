import * as v from 'valibot';
import { icNumberSchema, loginPasswordSchema, mobileSchema, uenSchema, withdrawalPasswordSchema } from './auth';
import { intFromInput, optionalText, pageSchema, requiredText } from './common';

// Wallet and account-settings input (issue 3), used by the forms and by the server. Every message is an
// error catalogue key. Money is integer cents; the client converts typed dollars with parseSgdToCents.

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
    // The current withdrawal password: required (by the server) to change one that exists.
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
    // Once a withdrawal password is set, changing where money goes needs it (checked by the server).
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

export function sameName(a: string, b: string): boolean {
  return normalizeName(a) === normalizeName(b);
}

// ---- Wallet (/api/wallet/...) ----

export const TOPUP_METHODS = ['paynow', 'bank'] as const;
export const TOPUP_STATUSES = ['pending', 'credited', 'rejected'] as const;
export const WITHDRAWAL_STATUSES = ['processing', 'refused', 'completed'] as const;
export const PAYOUT_METHODS = ['bank', 'paynow'] as const;

export type TopupStatus = (typeof TOPUP_STATUSES)[number];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const topupSchema = v.object({
  amount: amountSchema,
  method: v.picklist(TOPUP_METHODS, 'invalid_request'),
  reference: requiredText(),
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

// ---- What the API answers ----

export interface BankCard {
  bank_name: string; // '' when only PayNow is bound
  account_no: string; // masked: every digit but the last 4 is '*'
  account_last4: string;
  holder_name: string;
  paynow: string; // '' when none
  paynow_type: 'mobile' | 'uen' | '';
  updated_at: string;
  updated_at_ms: number;
}

export interface TopupRecord {
  id: number;
  amount: number;
  method: (typeof TOPUP_METHODS)[number];
  reference: string;
  status: TopupStatus;
  note: string; // the operator's reason on a rejection
  created_at: string;
  created_at_ms: number;
  decided_at: string | null;
  decided_at_ms: number | null;
}

export interface WithdrawalRecord {
  id: number;
  amount: number; // what the user receives
  fee: number; // handling fee
  total: number; // amount + fee, what left the available balance
  method: (typeof PAYOUT_METHODS)[number];
  bank_name: string;
  account_no: string; // masked
  holder_name: string;
  paynow: string;
  status: WithdrawalStatus;
  note: string; // the operator's reason on a refusal
  created_at: string;
  created_at_ms: number;
  decided_at: string | null;
  decided_at_ms: number | null;
}

export interface FundLogRow {
  id: number;
  entry_id: number;
  kind: string;
  account_name: string; // available, frozen, presale, unavailable, credits
  unit: 'cents' | 'tons';
  amount: number; // signed
  balance_after: number;
  memo: string;
  ref_type: string;
  ref_id: number;
  created_at: string;
  created_at_ms: number;
}

export interface NotificationItem {
  id: number;
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  created_at: string;
  created_at_ms: number;
  read: boolean;
}

export type TopupInput = v.InferInput<typeof topupSchema>;
export type WithdrawInput = v.InferInput<typeof withdrawSchema>;
export type BankCardInput = v.InferInput<typeof bankCardSchema>;
