import { createFileRoute } from '@tanstack/react-router';
import { CardPage } from '../../../features/wallet/card-page';

// Bank card / PayNow (docs/product.md#screens-and-routes): bind or change the payout account.
export const Route = createFileRoute('/pages/profile/card')({ component: CardPage });
