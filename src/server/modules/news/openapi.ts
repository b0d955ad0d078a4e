import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { idQuery, newsItemSchema, newsListQuery, newsPageSchema } from '../../../shared/schemas/content';

// The news endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.
export const NEWS_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.newsLists,
    operationId: 'newsLists',
    tag: 'News',
    summary: 'News, newest first (by page number, or by cursor: the next_cursor of the page before)',
    schema: newsListQuery,
    auth: 'none',
    answer: newsPageSchema,
    gives: '{list, total, page, page_size, next_cursor}',
  },
  { method: 'get', path: PATHS.newsDetail, operationId: 'newsDetail', tag: 'News', summary: 'One news item', schema: idQuery, auth: 'none', answer: newsItemSchema, errors: ['not_found'], gives: 'NewsItem' },
];
