import { createFileRoute } from '@tanstack/react-router';
import { CertificatesPage } from '../../../features/retire/certificates-page';

export const Route = createFileRoute('/pages/profile/certificates')({
  component: CertificatesPage,
});
