import { createFileRoute } from '@tanstack/react-router';
import { TonsPage } from '../../../features/orders/tons-page';

export const Route = createFileRoute('/pages/profile/tons')({
  component: TonsPage,
});
