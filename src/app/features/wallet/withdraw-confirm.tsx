import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { useWrite } from '../../components/forms/use-write';
import { formatSgd } from '../../lib/format';
import { maskPaynow, type BankCard } from '../../../shared/schemas/wallet';
import type { WithdrawResult } from '../../../shared/schemas/approval';
import { requestWithdrawal } from './api';
import type { WithdrawalPreview } from './amount';
import { SummaryRow } from './wallet-parts';

/** The withdrawal's last step: what is paid where, and the payment password; sends the request. */
export function WithdrawConfirmSheet({
  open,
  onClose,
  preview,
  card,
  payout,
  method,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  preview: WithdrawalPreview;
  card: BankCard;
  payout: 'bank' | 'paynow';
  method?: 'bank' | 'paynow';
  onDone: (record: WithdrawResult) => void;
}) {
  const { t } = useLingui();
  // The intent is this amount to this account; the password is not part of it (nor of the server's
  // fingerprint), and never kept beyond the sheet.
  const write = useWrite(requestWithdrawal, (input) => ({ amount: input.amount, method: input.method ?? '' }));

  const close = () => {
    write.setError('');
    onClose();
  };

  const confirm = async (password: string): Promise<number | null> => {
    const res = await write.run({ amount: preview.amount!, password, ...(method ? { method } : {}) });
    if (res?.code === 0 && res.data) onDone(res.data);
    return res?.code ?? null;
  };

  return (
    <ConfirmSheet
      open={open}
      onClose={close}
      title={<Trans>Confirm withdrawal</Trans>}
      password={{
        id: 'withdraw-password',
        testId: 'withdraw-password',
        label: <Trans>Payment password</Trans>,
        hint: (
          <Trans>
            Five wrong passwords lock withdrawals and freeze your balance. <Link to="/pages/profile/withdpwd">Forgot it? Get help</Link>
          </Trans>
        ),
        missing: t`Please enter your payment password.`,
      }}
      busy={write.busy}
      error={write.error}
      confirmLabel={<Trans>Confirm withdrawal</Trans>}
      busyLabel={<Trans>Sending…</Trans>}
      onConfirm={confirm}
      testId="withdraw-confirm"
      submitTestId="withdraw-confirm-submit"
    >
      <dl className="summary">
        <SummaryRow label={<Trans>You receive</Trans>} value={formatSgd(preview.amount!)} />
        <SummaryRow label={<Trans>Handling fee</Trans>} value={formatSgd(preview.fee!)} />
        <SummaryRow label={<Trans>Total from available balance</Trans>} value={formatSgd(preview.total!)} strong />
        <SummaryRow label={<Trans>Pay to</Trans>} value={payout === 'paynow' ? `PayNow ${maskPaynow(card.paynow, card.paynow_type)}` : `${card.bank_name} ${card.account_no}`} />
      </dl>
    </ConfirmSheet>
  );
}
