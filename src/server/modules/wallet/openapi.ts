import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import {
  bankCardSchema,
  fundLogQuery,
  loginPasswordChangeSchema,
  profileSchema,
  topupListQuery,
  topupSchema,
  withdrawalListQuery,
  withdrawPasswordSetSchema,
  withdrawSchema,
} from '../../../shared/schemas/wallet';

// The wallet's and account settings' endpoints, in the shape of ENDPOINTS in src/server/openapi.ts, for
// that list to include (`...WALLET_ENDPOINTS`). Writes take an Idempotency-Key header.
export const WALLET_ENDPOINTS: Endpoint[] = [
  { method: 'post', path: PATHS.userWithdpwd, summary: 'Set or change the withdrawal (payment) password', schema: withdrawPasswordSetSchema, auth: 'user', gives: 'null' },
  { method: 'post', path: PATHS.userLoginpwd, summary: 'Change the login password (other sessions end)', schema: loginPasswordChangeSchema, auth: 'user', gives: 'null' },
  { method: 'post', path: PATHS.userProfile, summary: 'Personal information: name, mobile, IC number', schema: profileSchema, auth: 'user', gives: '{first_name, last_name, realname, mobile, ic_number}' },
  { method: 'get', path: PATHS.userCard, summary: 'The bound bank account / PayNow (account number masked)', auth: 'user', gives: 'BankCard or null' },
  { method: 'post', path: PATHS.userCard, summary: 'Bind or replace the bank account / PayNow', schema: bankCardSchema, auth: 'user', gives: 'BankCard' },
  { method: 'post', path: PATHS.walletTopup, summary: 'Declare a top-up (pending until an operator confirms)', schema: topupSchema, auth: 'user', gives: 'TopupRecord' },
  { method: 'get', path: PATHS.walletTopups, summary: 'Top-ups, newest first', schema: topupListQuery, auth: 'user', gives: '{list: TopupRecord[], total, page, page_size}' },
  { method: 'post', path: PATHS.walletWithdraw, summary: 'Apply for a withdrawal (amount + fee frozen)', schema: withdrawSchema, auth: 'user', gives: 'WithdrawalRecord' },
  { method: 'get', path: PATHS.walletWithdrawals, summary: 'Withdrawals, newest first', schema: withdrawalListQuery, auth: 'user', gives: '{list: WithdrawalRecord[], total, page, page_size}' },
  { method: 'get', path: PATHS.walletFundlogs, summary: 'Fund logs, newest first, filterable by kind', schema: fundLogQuery, auth: 'user', gives: '{list: FundLogRow[], total, page, page_size}' },
];
