import { timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Prometheus metrics (issue 14): one registry per server (tests run several in one process), exposed at
// GET /metrics only to `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN there is no endpoint
// (404) and the middleware is not installed at all. Labels are route templates, never raw paths, so the
// number of series stays bounded whatever clients send.

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  idempotencyReplays: Counter;
  throttleRefusals: Counter<'route'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'canopy_' });
  return {
    registry,
    httpRequests: new Counter({ name: 'canopy_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    httpDuration: new Histogram({
      name: 'canopy_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    idempotencyReplays: new Counter({ name: 'canopy_idempotency_replays_total', help: 'Writes answered with a stored answer (a retried Idempotency-Key)', registers: [registry] }),
    throttleRefusals: new Counter({ name: 'canopy_throttle_refusals_total', help: 'Requests refused by a throttle (429), by route template', labelNames: ['route'], registers: [registry] }),
  };
}

/** The template of the route that answered: the first matched route that is neither middleware nor the
 *  static catch-all; '(static)' for files and the app shell, '(none)' when nothing matched. */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  for (const r of matchedRoutes(c)) {
    if (r.method === 'ALL' || r.path === '/*' || r.path === '*') continue;
    return r.path;
  }
  return c.req.path.startsWith('/h5/') ? '(none)' : '(static)';
}

export function metricsMiddleware(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const t0 = performance.now();
    await next();
    const route = routeOf(c);
    const method = c.req.method;
    metrics.httpRequests.inc({ method, route, status: String(c.res.status) });
    metrics.httpDuration.observe({ method, route }, (performance.now() - t0) / 1000);
    if (c.res.status === 429) metrics.throttleRefusals.inc({ route });
    if (c.res.headers.get('Idempotent-Replayed') === 'true') metrics.idempotencyReplays.inc();
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /metrics. Takes the token and the registry only (this module stays a leaf: env.ts names its type). */
export function metricsRoutes(deps: { config: { METRICS_TOKEN?: string }; metrics?: Metrics }) {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    const token = deps.config.METRICS_TOKEN;
    if (!token || !deps.metrics) return c.text('Not Found', 404);
    const auth = c.req.header('authorization') ?? '';
    if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7), token)) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.text('Unauthorized', 401);
    }
    c.header('Cache-Control', 'no-store');
    return c.text(await deps.metrics.registry.metrics(), 200, { 'Content-Type': deps.metrics.registry.contentType });
  });
  return app;
}
