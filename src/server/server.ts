import path from 'node:path';
import { sql } from 'kysely';
import { serve, type ServerType } from '@hono/node-server';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { createApp } from './app';
import { API_BASE } from '../shared/api';
import type { Deps } from './env';
import type { Config } from './config';
import { enablePreparedStatements, openDatabase, type DB } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedDemo } from './db/seed';
import { seedRegistryBlocks } from './modules/registry/seed';
import { systemClock, type Clock } from './lib/clock';
import { createLogger } from './lib/log';
import { createMailer } from './lib/mail';
import { createResponseCache } from './lib/response-cache';
import { createLimits } from './lib/limits';
import { createMetrics } from './lib/metrics';
import { loadServerSecret } from './lib/secret';
import { loadVapidKeys } from './lib/vapid';
import { createHub, type Hub } from './live/hub';
import { createEventFeed, type EventFeed } from './live/feed';
import { findSession } from './modules/session';
import { createScheduler, START_BATCH, type Scheduler } from './scheduler/scheduler';
import { observeWriteTx } from './db/tx';
import type { StartPhases } from './lib/start-phases';

/** The port is held by another process: main.ts says so and what to do, without a stack trace. */
export class PortInUse extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`Port ${port} on ${host} is in use by another process (another Canopy, or another server).`);
  }
}

export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  hub: Hub;
  /** The time-driven work and the periodic ledger check (tests stop it, or run a check now). */
  scheduler: Scheduler;
  /** The scheduler's first run of due work, started once the server listens (never rejects). */
  firstRun: Promise<void>;
  /** Readiness answers 503 from now on (SIGTERM): the proxy stops sending work; requests still get answers. */
  drain(): void;
  close(): Promise<void>;
}

/** Opens the database, migrates, seeds an empty one, and listens. Used by main.ts and by the tests. */
export async function startServer(config: Config, opts: { clock?: Clock; staticDir?: string; phases?: StartPhases } = {}): Promise<RunningServer> {
  const clock = opts.clock ?? systemClock;
  const { phases } = opts;
  const db = await openMigrated(config, clock, phases);
  const deps = await composeDeps(config, db, clock);
  if (config.SEED_DEMO) {
    await seedDemo(deps);
    // The seeded projects sell only what they hold on their registries: their demo blocks.
    await seedRegistryBlocks(db, clock.now());
  }
  phases?.mark('services');

  const scheduler = createScheduler(deps);
  const app = createApp(deps, { staticDir: opts.staticDir ?? path.resolve('dist') });
  const { feed, hub } = startLive(deps);
  phases?.mark('app');
  let server: Server;
  try {
    server = await listen(app.fetch, config, deps);
    phases?.mark('listening');
  } catch (err) {
    // Nothing listens: what started before stops, so the process can end with its message alone.
    await scheduler.stop();
    await hub.close();
    await feed.close();
    await db.destroy();
    await deps.limits.close();
    throw err;
  }
  hub.attach(server);
  // Time-driven transitions (orders, projects), from the database, once the server listens: a first run of
  // a few rows of each kind (what fell due in a short stop), then a long stop's backlog in bounded batches.
  // Readiness does not wait for them (it says the instance is catching up): on PostgreSQL every write takes
  // the one write lock (db/tx.ts), so under another instance's load the first run can wait seconds for its
  // turn (docs/operations.md#restarts). Each transition is a conditional update, so a request meeting an
  // order not yet moved sees it as it stands, as it would between two runs.
  deps.lifecycle.catchingUp = true;
  const firstRun = scheduler.start(START_BATCH);
  const port = (server.address() as AddressInfo).port;
  const url = ownAddress(config, port);
  const { lifecycle, limits } = deps;
  return {
    url,
    port,
    deps,
    hub,
    scheduler,
    firstRun,
    drain() {
      lifecycle.draining = true;
    },
    async close() {
      lifecycle.draining = true;
      await scheduler.stop();
      await hub.close();
      await feed.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
      await db.destroy();
      await limits.close();
    },
  };
}

/** The database, migrated, with the server secret read (or made, by the first instance of the database):
 *  a key that is not the one the other instances use stops the start, not a later retry
 *  (docs/decisions/0025-shared-secret.md). */
async function openMigrated(config: Config, clock: Clock, phases?: StartPhases): Promise<DB> {
  const { db } = openDatabase(config.DB_TARGET, { poolSize: config.DB_POOL_SIZE, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS });
  try {
    if (phases) {
      // Apart from the migration check only to be measured apart: a pool connects on its first query.
      await sql`select 1`.execute(db);
      phases.mark('database');
    }
    await migrateToLatest(db);
    phases?.mark('migrations');
    await loadServerSecret(db, config, clock.now());
    await loadVapidKeys(db, config, clock.now());
    phases?.mark('keys');
  } catch (err) {
    await db.destroy();
    throw err;
  }
  enablePreparedStatements(db);
  return db;
}

/** Deps as the server composes them: with the response cache and the lifecycle the tests may leave out. */
type ServerDeps = Deps & Required<Pick<Deps, 'publicCache' | 'lifecycle'>>;

/** What every part of the server is handed: the database, clock, log, mail, limits, response cache,
 *  lifecycle and (with METRICS_TOKEN) the metrics, which then also observe the write transactions. */
async function composeDeps(config: Config, db: DB, clock: Clock): Promise<ServerDeps> {
  const log = createLogger(config.LOG_LEVEL);
  const mailer = createMailer({ db, clock, log, smtpUrl: config.SMTP_URL, from: config.SMTP_FROM });
  // Metrics only with METRICS_TOKEN: without it no middleware and no hook records anything (lib/metrics.ts).
  const metrics = config.METRICS_TOKEN ? await createMetrics() : undefined;
  const limits = await createLimits(config, log, metrics);
  // Public GETs answered from memory, invalidated by the committed live events (startLive).
  // The project, news and content reads may be sent again without Hono (fastServe): no route of theirs has
  // middleware of its own (the public API's, with its limit per address, does).
  const publicCache = createResponseCache({ clock, fastPaths: new RegExp(`^${API_BASE}/api/(project|news|content)/`) });
  const lifecycle = { draining: false };
  const deps: ServerDeps = { config, db, clock, log, mailer, limits, publicCache, lifecycle, ...(metrics ? { metrics } : {}) };
  // Benchmarks only (config.ts refuses it outside NODE_ENV=benchmark).
  if (config.BENCH_SKIP_PAYMENT_PASSWORD) deps.skipPaymentPassword = true;
  if (metrics) {
    observeWriteTx(db, {
      tx: (seconds, committed) => metrics.dbWriteTx.observe({ outcome: committed ? 'commit' : 'rollback' }, seconds),
      group: (seconds) => metrics.dbCommitGroup.observe(seconds),
      batch: (jobs, held) => metrics.dbWriteBatch.observe({ outcome: held ? 'held' : 'failed' }, jobs),
    });
  }
  return deps;
}

/** The committed live events, read as soon as any source signals one, and the socket hub they reach. The
 *  cache subscribes before the hub, so it has dropped what an event changed before a client is told of it
 *  and asks again. */
function startLive(deps: ServerDeps): { feed: EventFeed; hub: Hub } {
  const feed = createEventFeed(deps);
  feed.subscribe((event) => {
    if (event.message) deps.publicCache.onLiveMessage(event.message);
  });
  const hub = createHub(deps, { feed, findSession: (token) => findSession(deps, token) });
  return { feed, hub };
}

/** Listens on HOST:PORT. An idle kept-alive connection stays open 65 s (Node's default is 5 s): longer than
 *  a reverse proxy's or a client's own idle timeout (nginx keepalive_timeout, a load balancer's 60 s), so
 *  the server is not the side that closes a connection the other end is just reusing (a request lost to
 *  "other side closed", undici#3141). Headers must still arrive within 66 s. */
async function listen(fetch: Parameters<typeof serve>[0]['fetch'], config: Config, deps: ServerDeps): Promise<Server> {
  const { publicCache, metrics } = deps;
  // A public read answered before from a kept answer goes out again from here, before Hono builds a
  // request, a context and a response for it (lib/response-cache.ts fastServe): the project list's page
  // costs about what a bare server sending the same bytes does (bench/http.ts).
  const served = metrics ? (route: string, t0: number) => metrics.http.record('GET', route, 200, (performance.now() - t0) / 1000) : undefined;
  const withFastPath = ((options: object, listener: RequestListener) =>
    createServer(options, (req, res) => {
      if (!publicCache.fastServe(req, res, served)) void listener(req, res);
    })) as unknown as typeof createServer;
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch, port: config.PORT, hostname: config.HOST, createServer: withFastPath }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUse(config.HOST, config.PORT) : err));
  });
  const http = server as Server;
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  return http;
}

/** Where this server listens, as a URL. Without PUBLIC_URL the app is there (the socket URL in baseconfig,
 *  the Origin sockets may come from): any name of this machine on this port, as a developer or an operator
 *  opens the printed address, 127.0.0.1 or the machine's LAN address. */
function ownAddress(config: Config, port: number): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  if (config.PUBLIC_URL === undefined) {
    config.PUBLIC_URL = `http://${host}:${port}`;
    config.PUBLIC_URL_DERIVED = true;
    config.ALLOWED_ORIGINS = [...config.ALLOWED_ORIGINS, ...listeningOrigins(config.HOST, port)];
  }
  return `http://${host}:${port}`;
}

/** The origins of a page served by this server when no PUBLIC_URL names it: the loopback names, and on a
 *  wildcard address every address of the machine's interfaces, each on the listening port. IP literals and
 *  `localhost` only: a name that merely resolves here (DNS rebinding) stays foreign. */
function listeningOrigins(host: string, port: number): string[] {
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  const wildcard = host === '0.0.0.0' || host === '::';
  const interfaces = wildcard
    ? Object.values(os.networkInterfaces())
        .flat()
        .map((a) => (a?.family === 'IPv6' ? `[${a.address}]` : a?.address))
    : [host];
  return [...new Set([...loopback, ...interfaces])].filter((h): h is string => !!h && !h.includes('%')).map((h) => `http://${h}:${port}`);
}
