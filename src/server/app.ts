import { Hono, type Context, type ErrorHandler, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv, Deps } from './env';
import { AppError, errorBody, jsonBody } from './lib/http';
import type { Lang } from '../shared/errors';
import { API_BASE, PATHS } from '../shared/api';
import { authRoutes } from './modules/auth/routes';
import { passkeyLoginRoutes, passkeyRoutes } from './modules/passkey/routes';
import { userRoutes } from './modules/user/routes';
import { projectRoutes } from './modules/project/routes';
import { newsRoutes } from './modules/news/routes';
import { contentRoutes } from './modules/content/routes';
import { walletRoutes } from './modules/wallet/routes';
import { orderRoutes } from './modules/order/routes';
import { footprintRoutes } from './modules/footprint/routes';
import { creditRoutes, publicRoutes } from './modules/retire/routes';
import { iccRoutes, verifyRoutes } from './modules/icc/routes';
import { receiptRoutes } from './modules/receipt/routes';
import { offsetRoutes } from './modules/offset/routes';
import { avatarRoutes, avatarTooLarge } from './modules/avatar/routes';
import { orgRoutes } from './modules/org/routes';
import { approvalRoutes } from './modules/approval/routes';
import { developerRoutes } from './modules/developer/routes';
import { v1App } from './modules/v1/routes';
import { webhookRoutes } from './modules/webhook/routes';
import { openApiDocument } from './openapi';
import { docsRoutes } from './modules/docs/routes';
import { healthRoutes } from './lib/health';
import { metricsRoutes, recordRequest } from './lib/metrics';
import { staticRoutes } from './static';
import { isConnectionError } from './db/errors';

async function requestLang(c: Context<AppEnv>, query: string | undefined): Promise<Lang> {
  let lang = query;
  if (!lang && c.req.method === 'POST' && (c.req.header('content-type') ?? '').includes('application/json')) {
    // Hono keeps the text it read: the route's input() reads the same, the body is read from the socket once.
    const parsed = await jsonBody(c).catch(() => undefined); // a malformed body is answered by the route with invalid_request, in English
    if (parsed && typeof parsed === 'object' && 'lang' in parsed) lang = String((parsed as { lang: unknown }).lang);
  }
  return lang === 'cn' ? 'cn' : 'en';
}

/** What every API answer carries, whatever made it: never stored by a cache, never sniffed as another type. */
function setApiHeaders(c: Context) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
}

/** GET and HEAD: the requests that carry no body we read. */
const isRead = (c: Context) => c.req.method === 'GET' || c.req.method === 'HEAD';

const TARPIT_MAX = 512;
/** Retry-After of an answer while the database is away: about as long as a failover or a restart of it. */
const OUTAGE_RETRY_AFTER_SEC = 2;

/** The largest body an API write takes (the avatar upload has its own, AVATAR_MAX_BYTES). */
const BODY_MAX = 64 * 1024;

/** The modules' sub-apps, in the order they are tried (a more specific path before the one it is under). */
const MODULES: ReadonlyArray<readonly [path: string, routes: Hono<AppEnv>]> = [
  ['/api/login/passkey', passkeyLoginRoutes],
  ['/api/login', authRoutes],
  ['/api/user/passkeys', passkeyRoutes],
  ['/api/user/footprint', footprintRoutes],
  ['/', avatarRoutes],
  ['/api/user', userRoutes],
  ['/api/project', projectRoutes],
  ['/api/news', newsRoutes],
  ['/api/content', contentRoutes],
  ['/api/wallet', walletRoutes],
  ['/api/order', orderRoutes],
  ['/api/credit', creditRoutes],
  ['/api/icc', iccRoutes],
  ['/api/verify', verifyRoutes],
  ['/api/offset', offsetRoutes],
  ['/api/org', orgRoutes],
  ['/api/approval', approvalRoutes],
  ['/api/developer/webhooks', webhookRoutes],
  ['/api/developer', developerRoutes],
  ['/api/public', publicRoutes],
  ['/api/receipt', receiptRoutes],
  // The interactive reference of the OpenAPI document, with a CSP of its own (modules/docs).
  ['/docs', docsRoutes],
];

/** The first middleware: the context every handler reads and, only when METRICS_TOKEN is set, the
 *  request's metrics timed around everything else in the same step (not a middleware layer of its own,
 *  which alone costs more than the recording: lib/metrics.ts, bench/metrics-overhead.ts). Without the
 *  token it is the plain one: nothing of the metrics runs. */
function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  const metrics = deps.metrics;
  if (!metrics) {
    return async (c, next) => {
      c.set('deps', deps);
      c.set('lang', 'en');
      await next();
    };
  }
  return async (c, next) => {
    c.set('deps', deps);
    c.set('lang', 'en');
    const t0 = performance.now();
    await next();
    recordRequest(metrics, c, t0);
  };
}

/** First on the API, so every answer has them: the 413 of the size limit, throttles (429), refusals, 404
 *  and onError's 500 too. Before next() for answers made inside, again after it for any that replaced them. */
const apiHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  setApiHeaders(c);
  await next();
  // On the finished answer's own headers (c.header would rebuild a finished answer, body and all). A
  // public answer of the response cache (the one kind with an ETag) says no-cache instead: a browser may
  // keep it but asks each time, and gets 304 while it is current (lib/response-cache.ts).
  const headers = c.res.headers;
  if (!headers.has('ETag')) headers.set('Cache-Control', 'no-store');
  headers.set('X-Content-Type-Options', 'nosniff');
};

/** The size limit comes first: nothing reads a body before it is known to be small. GET and HEAD read no
 *  body and skip it (its check alone builds a whole Request per call). A 413 is answered before the rest of
 *  the body is read, so the connection cannot carry another request: say so (Connection: close), or a
 *  keep-alive client reuses a socket the server is about to drop. */
function bodyLimits(deps: Deps): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({ maxSize: BODY_MAX, onError: (c) => c.json(errorBody('invalid_request', c.get('lang'), deps.clock.now()), 413, { Connection: 'close' }) });
  // The avatar upload alone takes a picture: its own, larger limit (AVATAR_MAX_BYTES, modules/avatar).
  const avatarLimit = bodyLimit({ maxSize: deps.config.AVATAR_MAX_BYTES, onError: avatarTooLarge });
  // A body whose length is declared (and not chunked) is judged by that header alone, as bodyLimit does,
  // without touching the body: asking for it builds a whole web Request and stream, about a tenth of an
  // order's CPU (bench/orders.ts profile); the handler then reads it straight from the socket.
  return (c, next) => {
    if (isRead(c)) return next();
    if (c.req.path === API_BASE + PATHS.userAvatar) return avatarLimit(c, next);
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && /^\d+$/.test(length)) {
      return Number(length) > BODY_MAX ? limit(c, next) : next();
    }
    return limit(c, next);
  };
}

/** The request's language: GET and HEAD take it from the query only, writes from the query or the body. */
const requestLanguage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const query = c.req.query('lang');
  c.set('lang', isRead(c) ? (query === 'cn' ? 'cn' : 'en') : await requestLang(c, query));
  await next();
};

/** Everything under API_BASE: the shared middleware, then the modules, the document and a 404. */
function apiApp(deps: Deps): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.use('*', apiHeaders);
  api.use('*', compress({ threshold: 1024 }));
  api.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  api.use('*', bodyLimits(deps));
  api.use('*', requestLanguage);
  for (const [path, routes] of MODULES) api.route(path, routes);
  api.get('/openapi.json', (c) => c.json(openApiDocument(deps.config)));
  // A mounted sub-app's notFound is not used by Hono, so unknown API paths are caught here.
  api.all('*', (c) => c.json(errorBody('not_found', c.get('lang'), deps.clock.now()), 404));
  return api;
}

/** Refusals (AppError) as the envelope; a throttle's answer is held back a moment (up to
 *  THROTTLE_DELAY_MS, for at most TARPIT_MAX answers at once): a client looping on refusals then costs a
 *  few requests a second, not hundreds. Anything else is logged and answered server_error. */
function errorHandler(deps: Deps): ErrorHandler<AppEnv> {
  let held = 0;
  const holdBack = async () => {
    if (deps.config.THROTTLE_DELAY_MS <= 0 || held >= TARPIT_MAX) return;
    held++;
    try {
      await new Promise((resolve) => setTimeout(resolve, deps.config.THROTTLE_DELAY_MS));
    } finally {
      held--;
    }
  };
  return async (err, c) => {
    const lang = c.get('lang') ?? 'en';
    if (c.req.path === API_BASE || c.req.path.startsWith(API_BASE + '/')) setApiHeaders(c);
    if (isConnectionError(err)) {
      // The database is away, not a defect: the client is told to retry (docs/operations.md#outages).
      deps.log.info(`database unavailable on ${c.req.method} ${c.req.path}: ${err.message}`);
      c.header('Retry-After', String(OUTAGE_RETRY_AFTER_SEC));
      return c.json(errorBody('service_unavailable', lang, deps.clock.now()), 503);
    }
    if (!(err instanceof AppError)) {
      deps.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
      return c.json(errorBody('server_error', lang, deps.clock.now()), 500);
    }
    if (err.retryAfterSec === undefined) return c.json(errorBody(err.key, lang, deps.clock.now(), err.params, err.data), 200);
    await holdBack();
    c.header('Retry-After', String(err.retryAfterSec));
    return c.json(errorBody(err.key, lang, deps.clock.now(), err.params, err.data), 429);
  };
}

/** The whole HTTP app: API under /h5/api, the built PWA with history-mode fallback. No listening here. */
export function createApp(deps: Deps, opts: { staticDir?: string } = {}) {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps));
  // Liveness and readiness, outside the API's envelope (lib/health.ts); /metrics beside them.
  app.route('/', healthRoutes(deps));
  app.route('/', metricsRoutes(deps));
  app.route(API_BASE, apiApp(deps));
  // The integrators' API: API keys, status codes and problem details (modules/v1), its own error handler.
  app.route('/v1', v1App(deps));
  app.onError(errorHandler(deps));
  if (opts.staticDir) app.route('/', staticRoutes(opts.staticDir, deps.config));
  return app;
}
