import { createFileRoute } from '@tanstack/react-router';
import { ContentPage } from '../../../features/content/content-page';

export const Route = createFileRoute('/pages/other/protocol')({ component: ProtocolPage });

function ProtocolPage() {
  return <ContentPage slug="protocol" />;
}
