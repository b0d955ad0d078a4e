import { createFileRoute } from '@tanstack/react-router';
import { PlansPage } from '../../../features/offset/plans-page';

export const Route = createFileRoute('/pages/profile/offsets')({
  component: PlansPage,
});
