import { createFileRoute } from '@tanstack/react-router';
import { WithdrawalsPage } from '../../../features/wallet/withdrawals-page';

// Route choice: docs/product.md#screens-and-routes lists /pages/profile/withdraw and /pages/profile/apply
// ("withdrawal application").
// /pages/profile/apply is the list of withdrawal records (processing / refused / completed);
// /pages/profile/withdraw is the withdrawal form.
export const Route = createFileRoute('/pages/profile/apply')({ component: WithdrawalsPage });
