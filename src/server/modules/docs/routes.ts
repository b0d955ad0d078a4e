import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { errorBody } from '../../lib/http';
import { API_BASE, PATHS } from '../../../shared/api';

// GET /h5/api/docs: the interactive API reference (docs/decisions/0012-api-contract.md), Swagger UI from the
// swagger-ui-dist package, served from node_modules by this server (no CDN), reading /h5/api/openapi.json.
// Its own CSP, for this page only: scripts and styles from this origin only, like the app shell's; Swagger UI
// sets inline style attributes, which style-src 'unsafe-inline' allows while <style> elements stay refused
// (style-src-elem 'self'); nothing is fetched from elsewhere.

const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "style-src-elem 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DIST = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const VERSION = (JSON.parse(fs.readFileSync(path.join(DIST, 'package.json'), 'utf8')) as { version: string }).version;
const ASSET_BASE = API_BASE + PATHS.docs;

/** The page's own script: Swagger UI on the served document (a file, not inline, under script-src 'self'). */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(API_BASE + PATHS.openapi)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE_CSS = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
.docs-head { padding: 12px 16px; background: #1f5135; color: #fff; font: 600 16px/1.4 system-ui, sans-serif; }
.docs-head a { color: #d9f0e1; }
/* Phones: the operationId under the path and summary rather than squeezed into a column beside them. */
@media (max-width: 600px) {
  .swagger-ui .opblock .opblock-summary-control { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-operation-id { flex-basis: 100%; word-break: normal; font-size: 12px; padding: 2px 0 0; }
}
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Canopy API reference</title>
<link rel="stylesheet" href="${ASSET_BASE}/swagger-ui.css">
<link rel="stylesheet" href="${ASSET_BASE}/docs.css">
<link rel="icon" type="image/png" href="${ASSET_BASE}/favicon-32x32.png">
</head>
<body>
<header class="docs-head">Canopy API reference · <a href="${API_BASE + PATHS.openapi}">openapi.json</a></header>
<main id="swagger-ui"></main>
<script src="${ASSET_BASE}/swagger-ui-bundle.js"></script>
<script src="${ASSET_BASE}/docs-init.js"></script>
</body>
</html>
`;

/** The files the page loads: name -> [media type, where it comes from]. Nothing else is served. */
const ASSETS: Record<string, { type: string; body: () => string | Buffer }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: () => fs.readFileSync(path.join(DIST, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: () => fs.readFileSync(path.join(DIST, 'swagger-ui-bundle.js')) },
  'docs-init.js': { type: 'text/javascript; charset=utf-8', body: () => INIT_JS },
  'docs.css': { type: 'text/css; charset=utf-8', body: () => PAGE_CSS },
  'favicon-32x32.png': { type: 'image/png', body: () => fs.readFileSync(path.join(DIST, 'favicon-32x32.png')) },
};
const kept = new Map<string, string | Buffer>();

export const docsRoutes = new Hono<AppEnv>();

docsRoutes.get('/', (c) =>
  c.html(PAGE, 200, { 'Content-Security-Policy': DOCS_CSP, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' }),
);

docsRoutes.get('/:file', (c) => {
  const name = c.req.param('file');
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return c.json(errorBody('not_found', c.get('lang'), c.get('deps').clock.now()), 404);
  let body = kept.get(name);
  if (body === undefined) kept.set(name, (body = asset.body()));
  // Named by the package's version: a browser may keep it (an ETag keeps the API's no-store off, app.ts).
  const etag = `"swagger-ui-${VERSION}-${name}"`;
  const headers = { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600', ETag: etag };
  // Compression makes the ETag weak (W/"..."): compare without that mark.
  if (c.req.header('if-none-match')?.replace(/^W\//, '') === etag) return c.body(null, 304, headers);
  return c.body(typeof body === 'string' ? body : new Uint8Array(body), 200, headers);
});
