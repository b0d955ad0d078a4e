import * as v from 'valibot';
import type { Endpoint } from '../../lib/openapi-endpoint';
import type { ErrorKey } from '../../../shared/errors';
import { PATHS } from '../../../shared/api';
import { pageSchema } from '../../../shared/schemas/common';
import { noticePageSchema, noticeReadResultSchema, noticeReadSchema } from '../../../shared/schemas/inbox';
import { membershipSchema, userInfoSchema } from '../../../shared/schemas/user';
import { pushDevicesSchema, pushKeySchema, pushSubscribeSchema, pushUnsubscribeSchema } from '../../../shared/schemas/push';
import { bankCardSchema, bankCardViewSchema, loginPasswordChangeSchema, profileSchema, profileViewSchema, withdrawPasswordSetSchema } from '../../../shared/schemas/wallet';

// The user module's endpoints, for ENDPOINTS in src/server/openapi.ts. In four lists because the document
// keeps its order of operations (the reference shows them by tag in that order): who is signed in, the
// account settings, the notifications inbox, membership. Writes take an Idempotency-Key header.

/** What checking the payment (withdrawal) password can refuse with (trade-password.ts). */
export const TRADE_PASSWORD_ERRORS: ErrorKey[] = ['account_locked', 'withdraw_password_unset', 'balance_frozen'];

export const USER_INFO_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.userInfo, operationId: 'userInfo', tag: 'Account', summary: 'Profile, grade, credit score, risk, locks and wallet', auth: 'session', answer: userInfoSchema, gives: 'UserInfo' },
];

export const ACCOUNT_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.userWithdpwd,
    operationId: 'userWithdpwd',
    tag: 'Account',
    summary: 'Set or change the withdrawal (payment) password',
    schema: withdrawPasswordSetSchema,
    auth: 'user',
    idempotent: true,
    answer: v.null(),
    errors: ['account_locked', 'login_locked', 'payment_password_same', 'password_incorrect', 'trade_password_incorrect', 'balance_frozen', 'too_many_requests'],
    gives: 'null',
  },
  {
    method: 'post',
    path: PATHS.userLoginpwd,
    operationId: 'userLoginpwd',
    tag: 'Account',
    summary: 'Change the login password (other sessions end)',
    schema: loginPasswordChangeSchema,
    auth: 'user',
    idempotent: true,
    answer: v.null(),
    errors: ['old_password_incorrect', 'login_locked', 'too_many_requests'],
    gives: 'null',
  },
  {
    method: 'post',
    path: PATHS.userProfile,
    operationId: 'userProfile',
    tag: 'Account',
    summary: 'Personal information: name, mobile, IC number',
    schema: profileSchema,
    auth: 'user',
    idempotent: true,
    answer: profileViewSchema,
    gives: '{first_name, last_name, realname, mobile, ic_number}',
  },
  {
    method: 'get',
    path: PATHS.userCard,
    operationId: 'userCard',
    tag: 'Account',
    summary: 'The bound bank account / PayNow (account number masked)',
    auth: 'user',
    answer: v.nullable(bankCardViewSchema),
    gives: 'BankCard or null',
  },
  {
    method: 'post',
    path: PATHS.userCard,
    operationId: 'userCardBind',
    tag: 'Account',
    summary: 'Bind or replace the bank account / PayNow',
    schema: bankCardSchema,
    auth: 'user',
    idempotent: true,
    answer: bankCardViewSchema,
    errors: ['paynow_invalid', 'name_required', 'holder_mismatch', 'trade_password_incorrect', ...TRADE_PASSWORD_ERRORS],
    gives: 'BankCard',
  },
];

export const NOTICE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.notifications,
    operationId: 'userNotifications',
    tag: 'Notifications',
    summary: 'Notifications, newest first, with the unread count',
    schema: pageSchema,
    auth: 'user',
    answer: noticePageSchema,
    gives: '{list: NotificationItem[], total, page, page_size, unread}',
  },
  {
    method: 'post',
    path: PATHS.notificationsRead,
    operationId: 'userNotificationsRead',
    tag: 'Notifications',
    summary: "Mark one notice ({id}) or every notice ({all: true}) of the caller read; another user's id is notice_not_found",
    schema: noticeReadSchema,
    auth: 'user',
    idempotent: true,
    answer: noticeReadResultSchema,
    errors: ['notice_not_found'],
    gives: '{marked, unread}',
  },
  {
    method: 'get',
    path: PATHS.pushKey,
    operationId: 'userPushKey',
    tag: 'Notifications',
    summary: 'The public VAPID key a browser subscribes to Web Push with (applicationServerKey)',
    auth: 'user',
    answer: pushKeySchema,
    gives: '{public_key}',
  },
  {
    method: 'post',
    path: PATHS.pushSubscribe,
    operationId: 'userPushSubscribe',
    tag: 'Notifications',
    summary: "Turn notifications on for this device: its PushSubscription (endpoint, keys) and the language it reads; again, updates them",
    schema: pushSubscribeSchema,
    auth: 'user',
    idempotent: true,
    answer: pushDevicesSchema,
    errors: ['push_endpoint_refused'],
    gives: '{devices}',
  },
  {
    method: 'post',
    path: PATHS.pushUnsubscribe,
    operationId: 'userPushUnsubscribe',
    tag: 'Notifications',
    summary: "Turn notifications off for this device (the caller's other devices keep them)",
    schema: pushUnsubscribeSchema,
    auth: 'user',
    idempotent: true,
    answer: pushDevicesSchema,
    gives: '{devices}',
  },
];

export const MEMBERSHIP_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.userMembership,
    summary: 'Membership: the grade ladder from configuration, completed purchases and the next grade',
    auth: 'user',
    gives: 'Membership',
    operationId: 'userMembership',
    tag: 'Account',
    answer: membershipSchema,
    errors: [],
  },
];
