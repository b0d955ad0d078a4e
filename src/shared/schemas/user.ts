import * as v from 'valibot';
import { epochMs, int } from './common';

// What GET /api/user/info answers (the type is inferred from the schema, written once).

export const walletBalancesSchema = v.strictObject({
  available: v.pipe(int(), v.description('Cents')),
  frozen: v.pipe(int(), v.description('Cents')),
  presale: v.pipe(int(), v.description('Cents')),
  unavailable: v.pipe(int(), v.description('Cents')),
  credits: v.pipe(int(), v.description('Tons')),
});
export type WalletBalances = v.InferOutput<typeof walletBalancesSchema>;

export const USER_TYPES = ['personal', 'corporate', 'visitor'] as const;
export const CREDIT_SCORES = ['excellent', 'medium', 'poor'] as const;

export const userInfoSchema = v.strictObject({
  mem_id: v.pipe(int(), v.description('0 for a visitor')),
  type: v.picklist(USER_TYPES),
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  realname: v.string(),
  mobile: v.string(),
  avatar: v.string(),
  company: v.string(),
  uen: v.string(),
  ic_number: v.string(),
  invite_code: v.string(),
  grade: v.pipe(int(), v.description('Membership level P0..P5')),
  credit_score: v.picklist(CREDIT_SCORES),
  risk: v.boolean(),
  locked: v.pipe(v.boolean(), v.description('Payment password locked, balance frozen')),
  login_locked: v.boolean(),
  has_withdraw_password: v.boolean(),
  joined_at: epochMs(),
  wallet: v.pipe(v.nullable(walletBalancesSchema), v.description('null for a visitor')),
});
export type UserInfo = v.InferOutput<typeof userInfoSchema>;

/** POST /api/user/avatar: the URL path of the stored picture. */
export const avatarAnswerSchema = v.strictObject({ avatar: v.pipe(v.string(), v.description('URL path: /h5/api/avatar/<sha256>.webp')) });
export type AvatarAnswer = v.InferOutput<typeof avatarAnswerSchema>;

/** GET /api/user/membership: the grade ladder from the server's configuration, and where this member stands. */
const membershipStepSchema = v.strictObject({
  grade: v.pipe(int(), v.description('P0..P5')),
  min_purchases: v.pipe(int(), v.description('Cents of completed purchases that reach this grade (0 for P0)')),
});
export const membershipSchema = v.strictObject({
  grade: v.pipe(int(), v.description('The member\'s grade (an operator may have set it above what purchases reach)')),
  purchases: v.pipe(int(), v.description('Cents: completed purchases so far (a pre-sale at its final price)')),
  grades: v.array(membershipStepSchema),
  next: v.pipe(
    v.nullable(v.strictObject({ grade: int(), min_purchases: int(), remaining: v.pipe(int(), v.description('Cents still to go')) })),
    v.description('The next grade above the current one, null at the top'),
  ),
  sell_min_grade: v.pipe(int(), v.description('Lowest grade that may sell purchased credits back')),
  presale_sell_min_grade: v.pipe(int(), v.description('Lowest grade that may sell credits from pre-sales')),
});
export type Membership = v.InferOutput<typeof membershipSchema>;
