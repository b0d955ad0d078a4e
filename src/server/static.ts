import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from './app';
import { socketUrl, type Config } from './config';

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

/** The origin (ws: or wss:) of the live socket the app is told to open: baseconfig's socket_host, from
 *  SOCKET_HOST or else PUBLIC_URL (server.ts fills PUBLIC_URL in at start, after this app is made, so read
 *  it per answer). Null when there is none a CSP source can name (an IPv6 literal: 'self' covers it). */
export function socketOrigin(config: Pick<Config, 'SOCKET_HOST' | 'PUBLIC_URL' | 'PORT'>): string | null {
  try {
    const origin = new URL(socketUrl(config)).origin;
    return /^wss?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin) ? origin : null;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of the app shell (index.html). Scripts only from this origin: the boot
 * shell's one script is a file of its own (public/boot-shell.js), not inline, so there is no hash to keep
 * in step with the built HTML. Styles: files from this origin, and inline style attributes (React `style`
 * props, the boot shell's banner); <style> elements stay refused where style-src-elem is understood.
 * Connections: this origin and the live socket's origin (explicit too: 'self' covers ws:/wss: of the same
 * host only in newer browsers, Safari from 16).
 */
export function appShellCsp(socket: string | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "style-src-elem 'self'",
    "img-src 'self' data: blob:",
    `connect-src 'self'${socket ? ` ${socket}` : ''}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The service worker's own policy (a worker runs under the CSP of its script's answer): it imports the
 *  Workbox runtime and fetches from this origin only. */
export const SERVICE_WORKER_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'";

/** Serves the built app from `dir`: hashed assets cached for a year, the service worker and HTML never,
 *  precompressed .gz when the client accepts it, and index.html for every app route (history mode). The
 *  HTML answers carry the app shell's CSP, built with `config`'s socket origin when one is given. */
export function staticRoutes(dir: string, config?: Pick<Config, 'SOCKET_HOST' | 'PUBLIC_URL' | 'PORT'>) {
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
      headers['Content-Security-Policy'] = appShellCsp(config ? socketOrigin(config) : null);
      headers['X-Frame-Options'] = 'DENY';
      headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
    } else if (urlPath === '/sw.js') {
      headers['Content-Security-Policy'] = SERVICE_WORKER_CSP;
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
