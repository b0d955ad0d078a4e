import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useWithdrawals } from './api';
import { WithdrawalList } from './records';
import { WalletPage } from './wallet-parts';

// /pages/profile/apply: the withdrawal records ("withdrawal applications"), status processing / refused /
// completed. The product lists both /pages/profile/withdraw and /pages/profile/apply
// (docs/product.md#screens-and-routes); withdraw is the form.

export function WithdrawalsPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Withdrawal records`}>
      <WithdrawalsScreen />
    </WalletPage>
  );
}

function WithdrawalsScreen() {
  const list = useWithdrawals();
  return (
    <div className="section">
      <WithdrawalList list={list} />
      <Link to="/pages/profile/withdraw" className="btn btn--ghost btn--block wallet-after-list">
        <Trans>New withdrawal</Trans>
      </Link>
    </div>
  );
}
