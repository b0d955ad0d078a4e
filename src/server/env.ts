import type { Config } from './config';
import type { DB } from './db/connection';
import type { OrgRole } from './db/schema';
import type { Clock } from './lib/clock';
import type { Logger } from './lib/log';
import type { Mailer } from './lib/mail';
import type { Limits } from './lib/limits';
import type { ResponseCache } from './lib/response-cache';
import type { Metrics } from './lib/metrics';
import type { Lang } from '../shared/errors';

// The Hono context types, in a leaf module: app.ts composes the modules and the modules take their context
// type from here, so no module imports app.ts (which imports them) and no import circle forms.

/** What createApp(deps) is given and every handler reads from c.get('deps'). */
export interface Deps {
  config: Config;
  db: DB;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  limits: Limits;
  /** Public GETs' answers, kept in memory; invalidated by the committed live events (live/feed.ts;
   *  startServer wires both).
   *  Absent: every answer is made per request. */
  publicCache?: ResponseCache;
  /** Set when the server starts draining (SIGTERM): /readyz answers 503 from then on. */
  lifecycle?: { draining: boolean; catchingUp?: boolean };
  /** Prometheus metrics (lib/metrics.ts); present when METRICS_TOKEN is set. */
  metrics?: Metrics;
  /** Benchmarks only: writes take any payment password (modules/user/trade-password.ts). startServer sets it
   *  from BENCH_SKIP_PAYMENT_PASSWORD, which config.ts refuses unless NODE_ENV=benchmark. */
  skipPaymentPassword?: true;
}

/** The Hono environment of every router: the dependencies and the request's language. */
export interface AppEnv {
  /** `acting`: set when the request acts for an organisation (modules/session.ts requireUser): its
   *  account and the member, for the organisation's activity log; `recheck`, the roles that may make this
   *  write, read again in its transaction (lib/activity.ts); `alone`, the owner acting above an approval
   *  threshold with no one else able to approve (lib/activity.ts markOwnerAlone); `apiKey`, the name and
   *  prefix of the API key a /v1 write came with, kept in its activity row. */
  Variables: { deps: Deps; lang: Lang; acting?: { accountId: number; memberId: number; recheck?: readonly OrgRole[]; alone?: boolean; apiKey?: string } };
}
