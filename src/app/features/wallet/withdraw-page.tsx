import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useOnline } from '../../lib/online';
import { SubmitButton } from '../../components/forms/submit-button';
import { WalletPage } from './wallet-parts';
import { useWithdrawForm } from './use-withdraw-form';
import { AccountNotices, AmountField, BalanceCard, DayNotice, FeeSummary, PayoutAccount } from './withdraw-parts';
import { WithdrawConfirmSheet } from './withdraw-confirm';

// /pages/profile/withdraw: the withdrawal form ("apply for withdrawal"); /pages/profile/apply lists the
// withdrawal records (docs/product.md#screens-and-routes). The handling fee and the total are shown before
// the confirm step, which asks for the payment password in a modal sheet. The server decides every
// rule (docs/product.md#withdrawals); its refusals are shown as returned (already translated).

export function WithdrawPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Withdraw`}>
      <WithdrawScreen />
    </WalletPage>
  );
}

function WithdrawScreen() {
  const online = useOnline();
  const form = useWithdrawForm();
  const { card, day, preview, payout } = form;
  return (
    <div className="section">
      <BalanceCard info={form.info} />
      <AccountNotices info={form.info} lang={form.lang} />
      <DayNotice block={day.block} nextDate={day.nextDate} />

      <form className="card wallet-card" onSubmit={form.onContinue} noValidate data-testid="withdraw-form">
        {/* On a day without withdrawals the form stays open for working out the fee (the news promises it is
            shown here); only Continue is off, as `blocked` includes the day. */}
        <fieldset className="wallet-fieldset" aria-describedby={day.block ? 'withdraw-next' : undefined}>
          <PayoutAccount card={card} payout={payout} hasBank={form.hasBank} hasPaynow={form.hasPaynow} onMethod={form.setMethod} />
          <AmountField amount={form.amount} onAmount={form.setAmount} amountError={form.amountError} limits={form.limits} />
          <FeeSummary preview={preview} />
          <SubmitButton testId="withdraw-submit" disabled={!form.limits || form.blocked === true || card === undefined}>
            <Trans>Continue</Trans>
          </SubmitButton>
        </fieldset>
      </form>

      <p className="wallet-links">
        <Link to="/pages/profile/apply">
          <Trans>Withdrawal records</Trans>
        </Link>
      </p>

      {preview && preview.amount !== null && payout && card && (
        <WithdrawConfirmSheet
          open={form.confirming && online}
          onClose={form.closeConfirm}
          preview={preview}
          card={card}
          payout={payout}
          method={form.method ?? undefined}
          onDone={form.done}
        />
      )}
    </div>
  );
}
