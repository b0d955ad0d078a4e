import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { serveStatic } from '@hono/node-server/serve-static';
import { pickEncoding } from './lib/response-cache';
import type { AppEnv } from './env';
import { socketUrl, type Config } from './config';

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

/** Types worth compressing (the ones with a .br/.gz beside them after a build), for Vary. */
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|javascript)|image\/svg)/;

/** Files up to this size are kept in memory once read; larger ones are streamed by serveStatic. */
const MEMORY_FILE_MAX = 1024 * 1024;
/** All kept files together (the built app is a few MiB, its .br and .gz included). */
const MEMORY_TOTAL_MAX = 64 * 1024 * 1024;

interface KeptFile {
  mtimeMs: number;
  size: number;
  type: string;
  lastModified: string;
  bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer };
  bytes: number;
}

/**
 * The built files in memory: read once (with the .br and .gz beside them) on first request, then answered
 * from memory; one stat per request notices a rebuild (metadata, nothing read). serveStatic streams each
 * answer from disk, 4.5x slower for the app's typical 1 KiB asset (docs/decisions/0015-scale.md), so it only
 * serves what this does not keep: files over MEMORY_FILE_MAX, Range requests, anything once the total is full.
 */
function fileMemory() {
  const kept = new Map<string, KeptFile>();
  let total = 0;
  const sibling = (file: string) => {
    try {
      return fs.readFileSync(file);
    } catch {
      return undefined;
    }
  };
  const stat = (file: string) => {
    try {
      return fs.statSync(file, { throwIfNoEntry: false });
    } catch {
      return undefined; // ENOTDIR (a path through a file) and the like: not a file either
    }
  };
  return (file: string): KeptFile | null => {
    const st = stat(file);
    const have = kept.get(file);
    if (have && st && have.mtimeMs === st.mtimeMs && have.size === st.size) return have;
    if (have) {
      kept.delete(file);
      total -= have.bytes;
    }
    if (!st?.isFile() || st.size > MEMORY_FILE_MAX || total + 3 * st.size > MEMORY_TOTAL_MAX) return null;
    const type = getMimeType(file) ?? 'application/octet-stream';
    const bodies: KeptFile['bodies'] = { identity: fs.readFileSync(file) };
    if (COMPRESSIBLE.test(type)) {
      bodies.br = sibling(file + '.br');
      bodies.gzip = sibling(file + '.gz');
    }
    const bytes = bodies.identity.length + (bodies.br?.length ?? 0) + (bodies.gzip?.length ?? 0);
    const entry: KeptFile = { mtimeMs: st.mtimeMs, size: st.size, type, lastModified: st.mtime.toUTCString(), bodies, bytes };
    kept.set(file, entry);
    total += bytes;
    return entry;
  };
}

type FileMemory = ReturnType<typeof fileMemory>;

/** The file a URL path names under root (the directory's index.html for '/'), or null. Like serveStatic,
 *  no percent-encoded, dot-dot or doubled-slash paths (those go on to it, and to a 404). */
function fileFor(root: string, urlPath: string): string | null {
  if (urlPath.includes('%') || /(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\/.test(urlPath)) return null;
  const file = path.join(root, urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath);
  return file.startsWith(root + path.sep) ? file : null;
}

/** The answer from memory (304 when the client's copy is current), or null when memory does not keep it
 *  (or a Range is asked for). */
function fromMemory(c: Context, memory: FileMemory, file: string | null): Response | null {
  if (!file || c.req.header('range')) return null;
  const kept = memory(file);
  if (!kept) return null;
  const headers: Record<string, string> = { 'Content-Type': kept.type, 'Last-Modified': kept.lastModified };
  const since = c.req.header('if-modified-since');
  if (since && Date.parse(since) >= Math.floor(kept.mtimeMs / 1000) * 1000) return c.body(null, 304, headers);
  const encoding = kept.bodies.br || kept.bodies.gzip ? pickEncoding(c.req.header('accept-encoding')) : null;
  const body = (encoding && kept.bodies[encoding]) || kept.bodies.identity;
  if (body !== kept.bodies.identity) headers['Content-Encoding'] = encoding!;
  headers['Content-Length'] = String(body.length);
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

/** The headers, by what was served (found files only; a 404 or 503 is plain text). */
function staticHeaders(config?: Pick<Config, 'SOCKET_HOST' | 'PUBLIC_URL' | 'PORT'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200 && c.res.status !== 206 && c.res.status !== 304) return;
    const headers = c.res.headers;
    const type = headers.get('Content-Type') ?? '';
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Cache-Control', c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (COMPRESSIBLE.test(type) && !/accept-encoding/i.test(headers.get('Vary') ?? '')) headers.append('Vary', 'Accept-Encoding');
    if (type.startsWith('text/html')) {
      headers.set('Content-Security-Policy', appShellCsp(config ? socketOrigin(config) : null));
      headers.set('X-Frame-Options', 'DENY');
      headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    } else if (c.req.path === '/sw.js') {
      headers.set('Content-Security-Policy', SERVICE_WORKER_CSP);
    }
  };
}

/** The app's own routes (history mode), which get index.html; the public certificate (/certificate/<id>),
 *  transparency and evidence-pack check (/verify, /verify/<sha256>) pages are app routes too. */
function isAppRoute(urlPath: string): boolean {
  return urlPath === '/' || urlPath.startsWith('/pages/') || urlPath === '/index.html' || urlPath === '/transparency' || /^\/certificate\/[A-Za-z0-9_-]{1,64}$/.test(urlPath) || /^\/verify(\/[0-9a-fA-F]{64})?$/.test(urlPath);
}

/**
 * Serves the built app from `dir`: each text file's precompressed .br or .gz (written by the build) when
 * the client accepts it, brotli first, never compressed per request; from memory (see fileMemory), else by
 * @hono/node-server's serveStatic (precompressed, HEAD and Range). Hashed assets are cached for a year,
 * everything else (the service worker, HTML, manifest) revalidated (Last-Modified, 304); every app route
 * gets index.html (history mode). The HTML answers carry the app shell's CSP, built with `config`'s socket
 * origin when one is given.
 */
export function staticRoutes(dir: string, config?: Pick<Config, 'SOCKET_HOST' | 'PUBLIC_URL' | 'PORT'>) {
  const root = path.resolve(dir);
  const app = new Hono<AppEnv>();
  const memory = fileMemory();
  // Made once the directory exists (serveStatic logs a missing root; a build may come after the start).
  let handlers: { files: MiddlewareHandler; shell: MiddlewareHandler } | null = null;
  const serve = () =>
    (handlers ??= fs.existsSync(root)
      ? { files: serveStatic({ root, precompressed: true }), shell: serveStatic({ root, path: 'index.html', precompressed: true }) }
      : null);

  app.use('*', staticHeaders(config));

  app.use('*', (c, next) => {
    // The built server lives in the same folder (dist/server, scripts/build-server.mjs): never a file to send.
    if (c.req.path === '/server' || c.req.path.startsWith('/server/')) return next();
    const answer = fromMemory(c, memory, fileFor(root, c.req.path));
    if (answer) return Promise.resolve(answer);
    const h = serve();
    return h ? h.files(c, next) : next();
  });

  // History-mode fallback: the app's own routes get index.html; anything else is a real 404.
  app.get('*', async (c) => {
    if (!isAppRoute(c.req.path)) return c.text('Not found', 404);
    const answer = fromMemory(c, memory, path.join(root, 'index.html'));
    if (answer) return answer;
    const shell = serve()?.shell;
    const res = shell ? await shell(c, () => Promise.resolve()) : undefined;
    return res ?? c.text('The app is not built yet: run `npm run build`.', 503);
  });
  return app;
}
