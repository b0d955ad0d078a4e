import { createFileRoute } from '@tanstack/react-router';
import { MembershipPage } from '../../../features/orders/membership-page';

export const Route = createFileRoute('/pages/profile/membership')({
  component: MembershipPage,
});
