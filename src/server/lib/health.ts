import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv, Deps } from '../env';
import { HEAD_MIGRATION } from '../db/migrate';
import { isConnectionError } from '../db/errors';

// Liveness and readiness for a proxy or orchestrator (docs/operations.md), outside the /h5/api envelope and
// never cached. /healthz says the process runs and touches nothing else. /readyz says this instance should
// get work: the database answers within READY_DB_TIMEOUT_MS, its migrations are at head (an instance started
// against an older schema, or a newer one, is not ready), and the server is not draining (SIGTERM). While
// it works off due work left from a stop it is ready and says `catching_up`; while the database is away it
// is not, and says `database: 'unreachable'`.

const READY_DB_TIMEOUT_MS = 1000;

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type Readiness =
  | { ready: true; migration: string; catchingUp: boolean }
  | { ready: false; reason: string; database?: 'unreachable' };

export async function readiness(deps: Pick<Deps, 'db' | 'lifecycle'>): Promise<Readiness> {
  if (deps.lifecycle?.draining) return { ready: false, reason: 'draining' };
  try {
    const { rows } = await withTimeout(sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(deps.db), READY_DB_TIMEOUT_MS);
    const applied = rows[0]?.name ?? '';
    if (applied !== HEAD_MIGRATION) return { ready: false, reason: `migrations not at head (database ${applied || 'empty'}, code ${HEAD_MIGRATION})` };
    return { ready: true, migration: applied, catchingUp: deps.lifecycle?.catchingUp === true };
  } catch (err) {
    // No answer in time, or a connection error: the database is away (the same errors requests answer 503).
    const away = !(err instanceof Error) || err.message.startsWith('no answer within') || isConnectionError(err);
    return { ready: false, reason: `database: ${err instanceof Error ? err.message : String(err)}`, ...(away ? { database: 'unreachable' as const } : {}) };
  }
}

export function healthRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const r = await readiness(deps);
    if (!r.ready) return c.json({ status: 'not_ready', reason: r.reason, ...(r.database ? { database: r.database } : {}) }, 503);
    // Catching up (due work left from a stop, run in batches) is still ready: requests are answered
    // correctly meanwhile, and an instance kept out of the pool until its backlog is done would make
    // a cluster's restart wait for it (docs/operations.md#restarts).
    return c.json({ status: 'ready', migration: r.migration, ...(r.catchingUp ? { catching_up: true } : {}) });
  });
  return app;
}
