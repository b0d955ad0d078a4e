import { createFileRoute } from '@tanstack/react-router';
import { ContentPage } from '../../../features/content/content-page';

export const Route = createFileRoute('/pages/other/privacy')({ component: PrivacyPage });

function PrivacyPage() {
  return <ContentPage slug="privacy" />;
}
