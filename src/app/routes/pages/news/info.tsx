import { createFileRoute } from '@tanstack/react-router';
import { NewsDetailPage } from '../../../features/news/news-detail-page';

export const Route = createFileRoute('/pages/news/info')({
  // A missing or malformed id becomes 0, which the page shows as "not found".
  validateSearch: (raw: Record<string, unknown>): { id: number } => {
    const id = Number(raw.id);
    return { id: Number.isSafeInteger(id) && id > 0 ? id : 0 };
  },
  component: NewsDetailRoute,
});

function NewsDetailRoute() {
  const { id } = Route.useSearch();
  return <NewsDetailPage id={id} />;
}
