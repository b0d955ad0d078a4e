import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from './config';
import type { DB } from './db/connection';
import type { Clock } from './lib/clock';
import type { Logger } from './lib/log';
import type { Mailer } from './lib/mail';
import type { Limits } from './lib/limits';
import { AppError, errorBody } from './lib/http';
import type { Lang } from '../shared/errors';
import { API_BASE } from '../shared/api';
import { authRoutes } from './modules/auth/routes';
import { userRoutes } from './modules/user/routes';
import { projectRoutes } from './modules/project/routes';
import { newsRoutes } from './modules/news/routes';
import { contentRoutes } from './modules/content/routes';
import { walletRoutes } from './modules/wallet/routes';
import { orderRoutes } from './modules/order/routes';
import { openApiDocument } from './openapi';
import { staticRoutes } from './static';

export interface Deps {
  config: Config;
  db: DB;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  limits: Limits;
}

export interface AppEnv {
  Variables: { deps: Deps; lang: Lang };
}

async function requestLang(req: Request, query: string | undefined): Promise<Lang> {
  let lang = query;
  if (!lang && req.method === 'POST' && (req.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(await req.clone().text());
      if (parsed && typeof parsed === 'object' && 'lang' in parsed) lang = String((parsed as { lang: unknown }).lang);
    } catch {
      // a malformed body is answered by the route with invalid_request, in English
    }
  }
  return lang === 'cn' ? 'cn' : 'en';
}

/** What every API answer carries, whatever made it: never stored by a cache, never sniffed as another type. */
function setApiHeaders(c: Context) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
}

const TARPIT_MAX = 512;

/** The whole HTTP app: API under /h5/api, the built PWA with history-mode fallback. No listening here. */
export function createApp(deps: Deps, opts: { staticDir?: string } = {}) {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('lang', 'en');
    await next();
  });

  const api = new Hono<AppEnv>();
  // First, so every API answer has them: the 413 of the size limit, throttles (429), refusals, 404 and
  // onError's 500 too. Before next() for answers made inside, again after it for any that replaced them.
  api.use('*', async (c, next) => {
    setApiHeaders(c);
    await next();
    setApiHeaders(c);
  });
  api.use('*', compress({ threshold: 1024 }));
  api.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  // The size limit comes first: nothing reads a body before it is known to be small.
  api.use('*', bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json(errorBody('invalid_request', c.get('lang'), deps.clock.now()), 413) }));
  api.use('*', async (c, next) => {
    c.set('lang', await requestLang(c.req.raw, c.req.query('lang')));
    await next();
  });

  api.route('/api/login', authRoutes);
  api.route('/api/user', userRoutes);
  api.route('/api/project', projectRoutes);
  api.route('/api/news', newsRoutes);
  api.route('/api/content', contentRoutes);
  api.route('/api/wallet', walletRoutes);
  api.route('/api/order', orderRoutes);
  api.get('/openapi.json', (c) => c.json(openApiDocument()));
  // A mounted sub-app's notFound is not used by Hono, so unknown API paths are caught here.
  api.all('*', (c) => c.json(errorBody('not_found', c.get('lang'), deps.clock.now()), 404));

  app.route(API_BASE, api);
  // A throttle's answer is held back a moment (up to THROTTLE_DELAY_MS, for at most TARPIT_MAX answers
  // at once): a client looping on refusals then costs a few requests a second, not hundreds.
  let held = 0;
  app.onError(async (err, c) => {
    const lang = c.get('lang') ?? 'en';
    if (c.req.path === API_BASE || c.req.path.startsWith(API_BASE + '/')) setApiHeaders(c);
    if (err instanceof AppError) {
      if (err.retryAfterSec !== undefined) {
        if (deps.config.THROTTLE_DELAY_MS > 0 && held < TARPIT_MAX) {
          held++;
          try {
            await new Promise((resolve) => setTimeout(resolve, deps.config.THROTTLE_DELAY_MS));
          } finally {
            held--;
          }
        }
        c.header('Retry-After', String(err.retryAfterSec));
        return c.json(errorBody(err.key, lang, deps.clock.now(), err.params, err.data), 429);
      }
      return c.json(errorBody(err.key, lang, deps.clock.now(), err.params, err.data), 200);
    }
    deps.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    return c.json(errorBody('server_error', lang, deps.clock.now()), 500);
  });

  if (opts.staticDir) app.route('/', staticRoutes(opts.staticDir, deps.config));
  return app;
}
