import { createFileRoute } from '@tanstack/react-router';
import { ContentPage } from '../../../features/content/content-page';

// "[index]" keeps the literal /pages/about/index path of SPEC section 2.
export const Route = createFileRoute('/pages/about/index')({ component: AboutPage });

function AboutPage() {
  return <ContentPage slug="about" />;
}
