import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from './app';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Serves the built app from `dir`: hashed assets cached for a year, the service worker and HTML never,
 *  precompressed .gz when the client accepts it, and index.html for every app route (history mode). */
export function staticRoutes(dir: string) {
  const root = path.resolve(dir);
  const app = new Hono<AppEnv>();
  const indexFile = path.join(root, 'index.html');

  function fileFor(urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const file = path.resolve(root, '.' + decoded);
    if (!file.startsWith(root + path.sep)) return null;
    try {
      return fs.statSync(file).isFile() ? file : null;
    } catch {
      return null;
    }
  }

  app.get('*', (c) => {
    const urlPath = c.req.path;
    let file = fileFor(urlPath);
    let isFallback = false;
    if (!file) {
      // History-mode fallback: the app's own routes get index.html; anything else is a real 404.
      if (urlPath === '/' || urlPath.startsWith('/pages/') || urlPath === '/index.html') {
        if (!fs.existsSync(indexFile)) return c.text('The app is not built yet: run `npm run build`.', 503);
        file = indexFile;
        isFallback = true;
      } else {
        return c.text('Not found', 404);
      }
    }
    const ext = path.extname(file);
    const headers: Record<string, string> = { 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'X-Content-Type-Options': 'nosniff' };
    if (urlPath.startsWith('/assets/')) headers['Cache-Control'] = 'public, max-age=31536000, immutable';
    else headers['Cache-Control'] = 'no-cache';
    if (ext === '.html' || isFallback) {
      headers['X-Frame-Options'] = 'DENY';
      headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
    }
    const gz = file + '.gz';
    if ((c.req.header('accept-encoding') ?? '').includes('gzip') && fs.existsSync(gz)) {
      headers['Content-Encoding'] = 'gzip';
      headers['Vary'] = 'Accept-Encoding';
      return c.body(fs.readFileSync(gz), 200, headers);
    }
    return c.body(fs.readFileSync(file), 200, headers);
  });
  return app;
}
