import { useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { keepNotice } from '../../components/page-notice';
import { formatDate, formatSgd } from '../../lib/format';
import { serverNow } from '../../lib/server-time';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import type { WithdrawResult } from '../../../shared/schemas/approval';
import { useCard, useLimits, useWithdrawals, type WalletLimits } from './api';
import { previewWithdrawal, type WithdrawalPreview } from './amount';
import { sgtDay, withdrawalDay } from './withdraw-day';

// The withdrawal form's state: the amount and its preview (fee, total), the payout method, and whether
// today is a withdrawal day (docs/product.md#withdrawals). The server decides every rule; this only says
// up front what it would refuse.

export const WITHDRAW_FORM = 'withdraw';

export type Payout = 'bank' | 'paynow';

function problemText(problem: WithdrawalPreview['problem'], limits: WalletLimits | null, lang: 'en' | 'cn'): string {
  switch (problem) {
    case 'empty':
      return errorMessage('required', lang);
    case 'invalid':
      return errorMessage('invalid_amount', lang);
    case 'below_min':
      return errorMessage('withdraw_below_min', lang, { n: formatSgd(limits?.withdraw_min ?? 0) });
    case 'above_max':
      return errorMessage('withdraw_above_max', lang, { n: formatSgd(limits?.withdraw_max ?? 0) });
    case 'insufficient':
      return errorMessage('insufficient_balance', lang);
    default:
      return '';
  }
}

/** A sent withdrawal's news, kept on the screen it leads to (the member must know the money is held, or
 *  sent); returns that screen. Above the organisation's threshold it waits for an approver
 *  (docs/product.md#approvals) and leads to the approvals; otherwise to the withdrawal list. */
export function keepWithdrawalNews(result: WithdrawResult, i18n: I18n): string {
  if ('approval' in result) {
    const amount = formatSgd(result.approval.amount);
    const path = '/pages/org/approvals';
    keepNotice(i18n._(msg`Withdrawal of ${amount} sent for approval. The money is held until an approver decides.`), 'success', { path });
    return path;
  }
  const amount = formatSgd(result.amount);
  const path = '/pages/profile/apply';
  keepNotice(i18n._(msg`Withdrawal of ${amount} submitted.`), 'success', { path });
  return path;
}

/** Today's withdrawal day: open, or why not (weekend, public holiday, already one today) and the next day. */
function useWithdrawalDay(limits: WalletLimits | null) {
  const recent = useWithdrawals();
  const now = serverNow();
  const todayDate = sgtDay(now).date;
  const withdrawnToday = recent.items.some((r) => r.status !== 'refused' && sgtDay(r.created_at_ms).date === todayDate);
  const day = withdrawalDay(now, { withdrawnToday, holidays: limits?.public_holidays });
  return { block: day.block, nextDate: formatDate(day.nextMs) };
}

export function useWithdrawForm() {
  const { i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const router = useRouter();
  const { info } = useUserInfo();
  const { card } = useCard();
  const limits = useLimits();
  const day = useWithdrawalDay(limits);
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<Payout | null>(null);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const available = info?.wallet?.available ?? null;
  const preview = limits ? previewWithdrawal(amount, limits, available) : null;
  const problem = preview?.problem ?? null;
  // Too much (over the maximum or the balance) shows while typing; too little or unreadable after Continue.
  const amountError = tried || problem === 'above_max' || problem === 'insufficient' ? problemText(problem, limits, lang) : '';

  const hasBank = Boolean(card?.bank_name && card.account_no);
  const hasPaynow = Boolean(card?.paynow);
  const payout: Payout | null = method ?? (hasBank ? 'bank' : hasPaynow ? 'paynow' : null);
  // Said up front, with the next possible day; the form is closed until then rather than refusing on submit.
  const blocked = info?.risk || info?.locked || card === null || info?.has_withdraw_password === false || day.block !== null;

  const onContinue = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!preview || problem !== null || blocked) {
      document.getElementById(`${WITHDRAW_FORM}-amount`)?.focus();
      return;
    }
    setConfirming(true);
  };

  const done = (result: WithdrawResult) => {
    setConfirming(false);
    setAmount('');
    setTried(false);
    void refreshUserInfo();
    void router.navigate({ to: keepWithdrawalNews(result, i18n) });
  };

  return {
    info, lang, card, limits, day,
    amount, setAmount, amountError, preview, method, setMethod, payout, hasBank, hasPaynow, blocked,
    onContinue, confirming, closeConfirm: () => setConfirming(false), done,
  };
}
