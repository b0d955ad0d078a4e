import { createFileRoute } from '@tanstack/react-router';
import { VerifyPage } from '../../features/carbontax/verify-page';

// Public: check an evidence pack file against the packs Canopy issued (no login).
export const Route = createFileRoute('/verify/')({
  component: function VerifyRoute() {
    return <VerifyPage />;
  },
});
