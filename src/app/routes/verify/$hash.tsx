import { createFileRoute } from '@tanstack/react-router';
import { VerifyPage } from '../../features/carbontax/verify-page';

// Public: whether Canopy issued an evidence pack with this SHA-256 (no login).
export const Route = createFileRoute('/verify/$hash')({
  component: function VerifyHashRoute() {
    const { hash } = Route.useParams();
    return <VerifyPage hash={hash} />;
  },
});
