import { createFileRoute } from '@tanstack/react-router';
import { WithdrawPage } from '../../../features/wallet/withdraw-page';

// Route choice: docs/product.md#screens-and-routes lists /pages/profile/withdraw and /pages/profile/apply
// ("withdrawal application").
// /pages/profile/withdraw is the withdrawal form (apply for a withdrawal: amount, fee, confirm with the
// payment password); /pages/profile/apply is the list of withdrawal records (processing / refused /
// completed).
export const Route = createFileRoute('/pages/profile/withdraw')({ component: WithdrawPage });
