import { createFileRoute } from '@tanstack/react-router';
import { NewsListPage } from '../../../features/news/news-list-page';

// "[index]" keeps the literal /pages/news/index path of docs/product.md#screens-and-routes.
export const Route = createFileRoute('/pages/news/index')({ component: NewsListPage });
