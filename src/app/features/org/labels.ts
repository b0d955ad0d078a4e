import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { OrgRole } from '../../../shared/schemas/org';
import type { ApprovalStatus } from '../../../shared/schemas/approval';

// Names of roles and of the activity log's actions, in the reader's language.

export const ROLE_LABELS: Record<OrgRole, MessageDescriptor> = {
  owner: msg`Owner`,
  admin: msg`Admin`,
  buyer: msg`Buyer`,
  approver: msg`Approver`,
  viewer: msg`Viewer`,
};

/** What each role may do, one line each (docs/product.md#organisations). */
export const ROLE_HINTS: Record<OrgRole, MessageDescriptor> = {
  owner: msg`Everything, and the organisation is theirs`,
  admin: msg`Members and settings`,
  buyer: msg`Top up, buy, book, pay, sell, retire, withdraw`,
  approver: msg`Approve or decline requests`,
  viewer: msg`Read only`,
};

export const ACTION_LABELS: Record<string, MessageDescriptor> = {
  'order.buy': msg`Bought credits`,
  'order.book': msg`Booked a pre-sale`,
  'order.finalpay': msg`Paid a final payment`,
  'order.sell': msg`Sold credits`,
  'wallet.topup': msg`Requested a top-up`,
  'wallet.withdraw': msg`Requested a withdrawal`,
  'credit.retire': msg`Retired credits`,
  'user.card': msg`Changed the payout account`,
  'user.profile': msg`Changed the profile`,
  'user.avatar': msg`Changed the picture`,
  'user.footprint': msg`Saved a footprint`,
  'user.notifications.read': msg`Read notices`,
  'org.invite': msg`Invited a member`,
  'org.join': msg`Joined`,
  'org.role': msg`Changed a role`,
  'org.remove': msg`Removed a member`,
  'approval.approve': msg`Approved a request`,
  'approval.decline': msg`Declined a request`,
  'approval.thresholds': msg`Changed the approval thresholds`,
  'approval.expire': msg`A request expired`,
  'approval.cancel': msg`Cancelled a request`,
  'offset.create': msg`Set up a monthly offset`,
  'offset.change': msg`Changed a monthly offset`,
  'offset.status': msg`Paused, resumed or cancelled a monthly offset`,
  'offset.month': msg`Monthly offset bought credits`,
  'icc.emissions': msg`Entered taxable emissions`,
  'user.push.subscribe': msg`Turned on notifications`,
  'user.push.unsubscribe': msg`Turned off notifications`,
  'v1.orders': msg`Bought credits with an API key`,
  'v1.retirements': msg`Retired credits with an API key`,
  'v1.quotes': msg`Asked for a quote with an API key`,
  'v1.sandbox.topup': msg`Added play money with a test key`,
  'developer.keys': msg`Made an API key`,
  'developer.keys.rotate': msg`Rotated an API key`,
  'developer.keys.revoke': msg`Revoked an API key`,
  'developer.sandbox.topup': msg`Added play money to the test mode`,
  'developer.webhooks': msg`Added a webhook endpoint`,
  'developer.webhooks.rotate': msg`Rotated a webhook secret`,
  'developer.webhooks.delete': msg`Deleted a webhook endpoint`,
  'developer.webhooks.ping': msg`Sent a webhook test`,
  'developer.webhooks.resend': msg`Resent a webhook delivery`,
};

/** A test key's order or retirement: play money and play credits (docs/product.md#integrators). */
export const TESTED_LABELS: Record<string, MessageDescriptor> = {
  'v1.orders': msg`Test order with a test key (play money)`,
  'v1.retirements': msg`Test retirement with a test key (not real)`,
};

/** A retirement or withdrawal that only asked an approver (docs/product.md#approvals). */
export const ASKED_LABELS: Record<string, MessageDescriptor> = {
  'credit.retire': msg`Asked to retire credits (sent for approval)`,
  'wallet.withdraw': msg`Asked to withdraw (sent for approval)`,
};

export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, MessageDescriptor> = {
  waiting: msg`Waiting for approval`,
  approved: msg`Approved`,
  declined: msg`Declined`,
  expired: msg`Expired`,
  cancelled: msg`Cancelled by its maker`,
};
