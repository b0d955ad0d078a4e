import { createFileRoute } from '@tanstack/react-router';
import { ContentPage } from '../../../features/content/content-page';

// "[index]" keeps the literal /pages/about/index path of docs/product.md#screens-and-routes.
export const Route = createFileRoute('/pages/about/index')({ component: AboutPage });

function AboutPage() {
  return <ContentPage slug="about" />;
}
