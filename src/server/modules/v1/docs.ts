import type { Context } from 'hono';
import { API_BASE, PATHS } from '../../../shared/api';

// The /v1 reference page: the app's Swagger UI files (served by modules/docs under /h5/api/docs) on the
// integrators' document, under the same kind of CSP: no inline script, nothing from elsewhere.

const ASSET_BASE = API_BASE + PATHS.docs;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true, displayOperationId: true, defaultModelsExpandDepth: 0, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Canopy integrators' API reference</title>
<link rel="stylesheet" href="${ASSET_BASE}/swagger-ui.css">
<link rel="stylesheet" href="${ASSET_BASE}/docs.css">
<link rel="icon" type="image/png" href="${ASSET_BASE}/favicon-32x32.png">
</head>
<body>
<header class="docs-head">Canopy integrators' API (/v1) · <a href="/v1/openapi.json">openapi.json</a></header>
<main id="swagger-ui"></main>
<script src="${ASSET_BASE}/swagger-ui-bundle.js"></script>
<script src="/v1/docs/init.js"></script>
</body>
</html>
`;

export function v1DocsPage(c: Context): Response {
  return c.html(PAGE, 200, { 'Content-Security-Policy': CSP });
}

export function v1DocsInit(c: Context): Response {
  return c.body(INIT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
}
