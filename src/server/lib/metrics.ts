import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

// Prometheus metrics (names, labels and the lag's definition in docs/decisions/0013-metrics.md): one
// registry per server process (tests run several in one process; with two instances each exposes its own,
// and Prometheus sums them), exposed at GET /metrics only to `Authorization: Bearer <METRICS_TOKEN>`;
// without METRICS_TOKEN there is no endpoint (404), no registry, app.ts's first middleware times nothing and
// every hook (`deps.metrics?.…`) records nothing. A leaf: it imports no server module (env.ts names its type;
// the hub, tx.ts via server.ts, idempotency, limits, the order routes and the scheduler record into it).
// Labels are bounded: route templates (never raw paths), catalogue codes, limiter names, fixed kinds.

export interface Metrics {
  registry: Registry;
  /** canopy_http_requests_total{method,route,status} and canopy_http_request_duration_seconds{method,route}. */
  http: HttpSeries;
  /** Open live sockets of this process (live/hub.ts). */
  socketsOpen: Gauge;
  /** Frames sent on live sockets: hello on open, pong per ping, event per delivered live_events row and socket. */
  socketMessages: Counter<'kind'>;
  /** One writeTx call, from the call to its answer (the wait for the shared commit included), by outcome. */
  dbWriteTx: Histogram<'outcome'>;
  /** One shared database transaction of the group commit: BEGIN (PostgreSQL: and its advisory lock) to COMMIT. */
  dbCommitGroup: Histogram;
  /** One batch of write transactions (db/tx.ts Batcher): how many jobs it carried, by outcome (held, failed). */
  dbWriteBatch: Histogram<'outcome'>;
  idempotencyReplays: Counter;
  /** By limiter name (lib/limits.ts LimitName, and the socket caps sockets_per_ip / sockets_per_token). */
  throttleRefusals: Counter<'limiter'>;
  /** Order writes that reached the order engine, by kind and the answer's catalogue code (0 = placed). */
  orders: Counter<'kind' | 'code'>;
  schedulerTick: Histogram;
  /** At a tick's start: the clock's now minus the earliest due time of the work found due (0 when none). */
  schedulerLag: Gauge;
  schedulerLastTick: Gauge;
  ledgerCheckOk: Gauge;
  ledgerCheckTimestamp: Gauge;
  ledgerCheckProblems: Gauge;
  /** Retirements whose registry cancellation is past its due time and not recorded (modules/retire/cancellation.ts). */
  registryCancellationsOverdue: Gauge;
}

const FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteStats {
  method: string;
  route: string;
  byStatus: Map<string, number>;
  /** Observations per bucket of FAST (not cumulative), the last one above every bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/** The HTTP counter and latency histogram, kept in plain maps and turned into Prometheus series only when
 *  scraped: the per-request work is a Map lookup and a few additions (prom-client's inc/observe validate
 *  and hash their labels on every call, ~1 us each: bench/metrics-overhead.ts measures what is left). */
export class HttpSeries {
  private readonly routes = new Map<string, RouteStats>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = method + ' ' + route;
    let r = this.routes.get(key);
    if (!r) this.routes.set(key, (r = { method, route, byStatus: new Map(), buckets: new Array<number>(FAST.length + 1).fill(0), sum: 0, count: 0 }));
    const st = String(status);
    r.byStatus.set(st, (r.byStatus.get(st) ?? 0) + 1);
    let i = 0;
    while (i < FAST.length && seconds > FAST[i]!) i++;
    r.buckets[i]!++;
    r.sum += seconds;
    r.count++;
  }

  /** The two metrics, in the shape prom-client's Registry formats (registerMetric takes any such object). */
  register(registry: Registry): void {
    const routes = this.routes;
    registry.registerMetric({
      name: 'canopy_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      type: 'counter',
      aggregator: 'sum',
      get: () => {
        const values = [];
        for (const r of routes.values()) for (const [status, value] of r.byStatus) values.push({ labels: { method: r.method, route: r.route, status }, value });
        return { name: 'canopy_http_requests_total', help: 'HTTP requests answered, by method, route template and status', type: 'counter', aggregator: 'sum', values };
      },
    } as unknown as Counter);
    const help = 'Time to answer an HTTP request, by method and route template';
    registry.registerMetric({
      name: 'canopy_http_request_duration_seconds',
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => {
        const values = [];
        for (const r of routes.values()) {
          const labels = { method: r.method, route: r.route };
          let acc = 0;
          for (let i = 0; i < FAST.length; i++) {
            acc += r.buckets[i]!;
            values.push({ metricName: 'canopy_http_request_duration_seconds_bucket', labels: { ...labels, le: FAST[i]! }, value: acc });
          }
          values.push({ metricName: 'canopy_http_request_duration_seconds_bucket', labels: { ...labels, le: '+Inf' }, value: r.count });
          values.push({ metricName: 'canopy_http_request_duration_seconds_sum', labels, value: r.sum });
          values.push({ metricName: 'canopy_http_request_duration_seconds_count', labels, value: r.count });
        }
        return { name: 'canopy_http_request_duration_seconds', help, type: 'histogram', aggregator: 'sum', values };
      },
    } as unknown as Histogram);
  }
}

/** prom-client is loaded here, with METRICS_TOKEN only: a server without it never loads it. */
export async function createMetrics(): Promise<Metrics> {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'canopy_' });
  const registers = [registry];
  const http = new HttpSeries();
  http.register(registry);
  return {
    registry,
    http,
    socketsOpen: new Gauge({ name: 'canopy_sockets_open', help: 'Live sockets open on this instance', registers }),
    socketMessages: new Counter({ name: 'canopy_socket_messages_sent_total', help: 'Frames sent on live sockets, by kind (hello, pong, event)', labelNames: ['kind'], registers }),
    dbWriteTx: new Histogram({
      name: 'canopy_db_write_tx_duration_seconds',
      help: 'A write transaction (writeTx) from its call to its answer, the wait for the shared commit included, by outcome (commit, rollback)',
      labelNames: ['outcome'],
      buckets: FAST,
      registers,
    }),
    dbCommitGroup: new Histogram({ name: 'canopy_db_commit_group_duration_seconds', help: 'One shared database write transaction of the group commit, BEGIN to COMMIT', buckets: FAST, registers }),
    dbWriteBatch: new Histogram({
      name: 'canopy_db_write_batch_jobs',
      help: 'Write transactions run as one batch (orders waiting for the same commit), by outcome (held; failed: each ran alone)',
      labelNames: ['outcome'],
      buckets: [2, 4, 8, 16, 32, 64],
      registers,
    }),
    idempotencyReplays: new Counter({ name: 'canopy_idempotency_replays_total', help: 'Writes answered with a stored answer (a retried Idempotency-Key)', registers }),
    throttleRefusals: new Counter({ name: 'canopy_throttle_refusals_total', help: 'Requests and socket handshakes refused by a throttle, by limiter name', labelNames: ['limiter'], registers }),
    orders: new Counter({ name: 'canopy_orders_total', help: 'Order writes (buy, book, finalpay, sell, offset: a monthly offset\'s buy) by kind and catalogue code of the answer: 0 placed, else the refusal', labelNames: ['kind', 'code'], registers }),
    schedulerTick: new Histogram({ name: 'canopy_scheduler_tick_duration_seconds', help: 'One scheduler tick (due transitions and pruning)', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers }),
    schedulerLag: new Gauge({ name: 'canopy_scheduler_lag_seconds', help: "At the last tick's start: now minus the earliest due time of the work due (0 when nothing was due)", registers }),
    schedulerLastTick: new Gauge({ name: 'canopy_scheduler_last_tick_timestamp_seconds', help: 'When the last scheduler tick ended (clock time, seconds)', registers }),
    ledgerCheckOk: new Gauge({ name: 'canopy_ledger_check_ok', help: 'The last ledger check: 1 every balance equals its fund logs and every unit sums to zero, 0 otherwise', registers }),
    ledgerCheckTimestamp: new Gauge({ name: 'canopy_ledger_check_timestamp_seconds', help: 'When the last ledger check completed (clock time, seconds)', registers }),
    ledgerCheckProblems: new Gauge({ name: 'canopy_ledger_check_problems', help: 'Accounts whose balance differs from the sum of their fund logs, at the last ledger check', registers }),
    registryCancellationsOverdue: new Gauge({ name: 'canopy_registry_cancellations_overdue', help: 'Retirements not yet recorded as cancelled on their registry past their due time (REGISTRY_CANCEL_DAYS working days)', registers }),
  };
}

/** The template of the route that answered: the first matched route that is neither middleware nor the
 *  static catch-all; '(static)' for files and the app shell, '(none)' when nothing matched. */
export function routeOf(c: Context): string {
  for (const r of matchedRoutes(c)) {
    if (r.method === 'ALL' || r.path === '/*' || r.path === '*') continue;
    return r.path;
  }
  return c.req.path.startsWith('/h5/') ? '(none)' : '(static)';
}

/** Records one answered request begun at `t0` (performance.now()): called by app.ts's first middleware
 *  after everything else has run, so the route that answered and its status are known. */
export function recordRequest(metrics: Metrics, c: Context, t0: number): void {
  metrics.http.record(c.req.method, routeOf(c), c.res.status, (performance.now() - t0) / 1000);
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
