import * as v from 'valibot';
import { approvalSentSchema } from '../../../shared/schemas/approval';
import type { Endpoint } from '../../lib/openapi-endpoint';
import { TRADE_PASSWORD_ERRORS } from '../user/openapi';
import { PATHS } from '../../../shared/api';
import {
  fundLogPageSchema,
  fundLogQuery,
  topupListQuery,
  topupPageSchema,
  topupRecordSchema,
  topupSchema,
  withdrawalListQuery,
  withdrawalPageSchema,
  withdrawalRecordSchema,
  withdrawSchema,
} from '../../../shared/schemas/wallet';

// The wallet's endpoints, for ENDPOINTS in src/server/openapi.ts. Writes take an Idempotency-Key header.

export const WALLET_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.walletTopup,
    operationId: 'walletTopup',
    tag: 'Wallet',
    summary: 'Request a top-up: a unique reference (the client\'s, or assigned), its PayNow QR and expiry; credited when the bank statement shows it',
    schema: topupSchema,
    auth: 'user',
    idempotent: true,
    answer: topupRecordSchema,
    errors: ['topup_below_min', 'topup_reference_invalid', 'topup_reference_taken'],
    gives: 'TopupRecord with paynow_qr and expires_at',
  },
  {
    method: 'get',
    path: PATHS.walletTopups,
    operationId: 'walletTopups',
    tag: 'Wallet',
    summary: 'Top-ups, newest first',
    schema: topupListQuery,
    auth: 'user',
    answer: topupPageSchema,
    gives: '{list: TopupRecord[], total, page, page_size}',
  },
  {
    method: 'post',
    path: PATHS.walletWithdraw,
    operationId: 'walletWithdraw',
    tag: 'Wallet',
    summary: 'Apply for a withdrawal (amount + fee frozen)',
    schema: withdrawSchema,
    auth: 'user',
    idempotent: true,
    answer: v.union([withdrawalRecordSchema, approvalSentSchema]),
    errors: [
      'risk_forbidden',
      'withdraw_below_min',
      'withdraw_above_max',
      'withdraw_weekend',
      'withdraw_holiday',
      'bank_incorrect',
      'withdraw_daily_limit',
      'insufficient_balance',
      'trade_password_incorrect',
      ...TRADE_PASSWORD_ERRORS,
    ],
    gives: "WithdrawalRecord; or {approval} when a member's withdrawal above the organisation's threshold waits for an approver (docs/product.md#approvals)",
  },
  {
    method: 'get',
    path: PATHS.walletWithdrawals,
    operationId: 'walletWithdrawals',
    tag: 'Wallet',
    summary: 'Withdrawals, newest first',
    schema: withdrawalListQuery,
    auth: 'user',
    answer: withdrawalPageSchema,
    gives: '{list: WithdrawalRecord[], total, page, page_size}',
  },
  {
    method: 'get',
    path: PATHS.walletFundlogs,
    operationId: 'walletFundlogs',
    tag: 'Wallet',
    summary: 'Fund logs, newest first, filterable by kind',
    schema: fundLogQuery,
    auth: 'user',
    answer: fundLogPageSchema,
    gives: '{list: FundLogRow[], total, page, page_size}',
  },
];
