import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { PAYMENT_METHODS, ReceiptKindName } from '../../../shared/schemas/receipt';

// Labels of a receipt's wire values (docs/product.md#receipts), the words its mail and PDF use.

export const receiptKindLabel: Record<ReceiptKindName, MessageDescriptor> = {
  purchase: msg`Purchase`,
  booking: msg`Pre-sale booking fee`,
  final_payment: msg`Pre-sale final payment`,
  sale: msg`Sale of credits`,
  retirement: msg`Retirement of credits`,
  topup: msg`Top-up credited`,
  withdrawal: msg`Withdrawal completed`,
};

export const paymentMethodLabel: Record<(typeof PAYMENT_METHODS)[number], MessageDescriptor> = {
  wallet: msg`Wallet balance`,
  paynow: msg`PayNow`,
  bank: msg`Bank transfer`,
  none: msg`—`,
};
