import { createFileRoute } from '@tanstack/react-router';
import { CarbonTaxPage } from '../../../features/carbontax/cap-page';

export const Route = createFileRoute('/pages/profile/carbontax')({
  component: CarbonTaxPage,
});
