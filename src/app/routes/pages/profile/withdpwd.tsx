import { createFileRoute } from '@tanstack/react-router';
import { WithdrawPasswordPage } from '../../../features/account/withdraw-password-page';

// Payment password (docs/product.md#screens-and-routes): set or change it.
export const Route = createFileRoute('/pages/profile/withdpwd')({ component: WithdrawPasswordPage });
