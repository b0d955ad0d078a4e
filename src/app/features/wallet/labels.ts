import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { TopupStatus, WithdrawalStatus } from '../../../shared/schemas/wallet';

// Labels of the wallet's wire values. Fund log kinds are open-ended (the marketplace adds its own), so an
// unknown kind reads as a generic "Balance change" rather than a raw identifier.

/** Every fund log kind the server writes today (wallet, lock and marketplace), in filter-chip order. */
export const FUND_LOG_KINDS = [
  'topup',
  'withdrawal_apply',
  'withdrawal_complete',
  'withdrawal_refuse',
  'order_buy',
  'presale_booking',
  'presale_final_payment',
  'presale_refund',
  'presale_forfeit',
  'credit_issue',
  'credit_sell',
  'credit_retire',
  'sale_settlement',
  'lock_freeze',
  'lock_unfreeze',
  'approval_hold',
  'approval_release',
] as const;
export type FundLogKind = (typeof FUND_LOG_KINDS)[number];

export const fundLogKindLabel: Record<FundLogKind, MessageDescriptor> = {
  topup: msg`Top-up`,
  withdrawal_apply: msg`Withdrawal applied (held)`,
  withdrawal_complete: msg`Withdrawal paid out`,
  withdrawal_refuse: msg`Withdrawal refused (returned)`,
  order_buy: msg`Project purchase`,
  presale_booking: msg`Pre-sale booking fee`,
  presale_final_payment: msg`Pre-sale final payment`,
  presale_refund: msg`Pre-sale refund`,
  presale_forfeit: msg`Booking fee forfeited`,
  credit_issue: msg`Carbon credits issued`,
  credit_sell: msg`Carbon credits sold`,
  credit_retire: msg`Carbon credits retired`,
  sale_settlement: msg`Sale proceeds released`,
  lock_freeze: msg`Frozen after wrong passwords`,
  lock_unfreeze: msg`Unfrozen by the administrator`,
  approval_hold: msg`Held for an approval`,
  approval_release: msg`Approval hold released`,
};

/** Short labels for the filter chips. */
export const fundLogKindChip: Record<FundLogKind, MessageDescriptor> = {
  topup: msg`Top-ups`,
  withdrawal_apply: msg`Withdrawals`,
  withdrawal_complete: msg`Paid out`,
  withdrawal_refuse: msg`Refused`,
  order_buy: msg`Purchases`,
  presale_booking: msg`Bookings`,
  presale_final_payment: msg`Final payments`,
  presale_refund: msg`Refunds`,
  presale_forfeit: msg`Forfeits`,
  credit_issue: msg`Credits issued`,
  credit_sell: msg`Credits sold`,
  credit_retire: msg`Credits retired`,
  sale_settlement: msg`Settlements`,
  lock_freeze: msg`Freezes`,
  lock_unfreeze: msg`Unfreezes`,
  approval_hold: msg`Approval holds`,
  approval_release: msg`Approval releases`,
};

export const unknownKindLabel = msg`Balance change`;

export function isFundLogKind(kind: string): kind is FundLogKind {
  return (FUND_LOG_KINDS as readonly string[]).includes(kind);
}

export function kindLabel(kind: string): MessageDescriptor {
  return isFundLogKind(kind) ? fundLogKindLabel[kind] : unknownKindLabel;
}

export const FUND_ACCOUNTS = ['available', 'frozen', 'presale', 'unavailable', 'credits'] as const;
export type FundAccount = (typeof FUND_ACCOUNTS)[number];

export const accountLabel: Record<FundAccount, MessageDescriptor> = {
  // "Available" alone is also the remaining tons of a project: a context keeps them apart.
  available: msg({ message: 'Available', context: 'balance account' }),
  frozen: msg`Frozen`,
  presale: msg`Pre-sale`,
  unavailable: msg`Unavailable`,
  credits: msg`Carbon credits`,
};

/** A fund-log line's balance after it, named by its bucket ("Frozen balance S$102.00"): one message per
 *  bucket, since the words join differently in each language. */
const balanceLabel: Record<FundAccount, MessageDescriptor> = {
  available: msg`Available balance {amount}`,
  frozen: msg`Frozen balance {amount}`,
  presale: msg`Pre-sale balance {amount}`,
  unavailable: msg`Unavailable balance {amount}`,
  credits: msg`Credits held {amount}`,
};

export function balanceAfterLabel(name: string): MessageDescriptor {
  return (FUND_ACCOUNTS as readonly string[]).includes(name) ? balanceLabel[name as FundAccount] : msg`Other balance {amount}`;
}

export function accountNameLabel(name: string): MessageDescriptor {
  return (FUND_ACCOUNTS as readonly string[]).includes(name) ? accountLabel[name as FundAccount] : msg`Other balance`;
}

export const topupStatusLabel: Record<TopupStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  credited: msg`Credited`,
  rejected: msg`Rejected`,
};

export const withdrawalStatusLabel: Record<WithdrawalStatus, MessageDescriptor> = {
  processing: msg`Processing`,
  refused: msg`Refused`,
  completed: msg`Completed`,
};

export const topupMethodLabel: Record<'paynow' | 'bank', MessageDescriptor> = {
  paynow: msg`PayNow`,
  bank: msg`Bank transfer`,
};

/** Where money moved out of the available balance is held, on the one row of a booking fee, a withdrawal or
 *  a freeze. */
const heldIntoLabel: Partial<Record<FundAccount, MessageDescriptor>> = {
  presale: msg`Held in your pre-sale balance`,
  frozen: msg`Held in your frozen balance`,
};

export function heldInto(name: string): MessageDescriptor {
  return heldIntoLabel[name as FundAccount] ?? msg`Held in another balance`;
}
