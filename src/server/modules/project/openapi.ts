import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { idQuery, projectListQuery, projectPageSchema, projectSchema } from '../../../shared/schemas/content';

// The project endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.
export const PROJECT_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.projectLists,
    operationId: 'projectLists',
    tag: 'Projects',
    summary: 'Projects, paged (by page number, or by cursor: the next_cursor of the page before)',
    schema: projectListQuery,
    auth: 'none',
    answer: projectPageSchema,
    gives: '{list, total, page, page_size, next_cursor}',
  },
  { method: 'get', path: PATHS.projectDetail, operationId: 'projectDetail', tag: 'Projects', summary: 'One project', schema: idQuery, auth: 'none', answer: projectSchema, errors: ['not_found'], gives: 'Project' },
];
