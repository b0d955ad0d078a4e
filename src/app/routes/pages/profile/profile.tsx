import { createFileRoute } from '@tanstack/react-router';
import { PersonalInfoPage } from '../../../features/account/personal-info-page';

// Personal information (docs/product.md#screens-and-routes): name, mobile, IC number. The name is what payout
// holder names must match, so it lives with the wallet screens.
export const Route = createFileRoute('/pages/profile/profile')({ component: PersonalInfoPage });
