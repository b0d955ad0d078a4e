import { createFileRoute } from '@tanstack/react-router';
import { NewsListPage } from '../../../features/news/news-list-page';

// "[index]" keeps the literal /pages/news/index path of SPEC section 2.
export const Route = createFileRoute('/pages/news/index')({ component: NewsListPage });
