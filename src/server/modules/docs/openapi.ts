import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';

// The reference page's endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts (`...DOCS_ENDPOINTS`).
export const DOCS_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.docs, operationId: 'docsPage', tag: 'Reference', summary: 'This reference, interactive (Swagger UI)', auth: 'none', bare: ['text/html'], gives: 'an HTML page (not enveloped)' },
  {
    method: 'get',
    path: PATHS.docsAsset,
    operationId: 'docsAsset',
    tag: 'Reference',
    summary: "The reference page's scripts and styles (swagger-ui.css, swagger-ui-bundle.js, docs-init.js, docs.css, favicon-32x32.png)",
    auth: 'none',
    bare: ['text/javascript', 'text/css', 'image/png'],
    gives: 'a script or a style sheet (not enveloped)',
  },
];
