import { createFileRoute } from '@tanstack/react-router';
import { CertificatePage } from '../../features/retire/certificate-page';

// Public: a retirement certificate by its unguessable id (no login).
export const Route = createFileRoute('/certificate/$id')({
  component: function CertificateRoute() {
    const { id } = Route.useParams();
    return <CertificatePage id={id} />;
  },
});
