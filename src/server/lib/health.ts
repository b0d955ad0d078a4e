import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv, Deps } from '../env';
import { HEAD_MIGRATION } from '../db/migrate';

// Liveness and readiness for a proxy or orchestrator (docs/operations.md), outside the /h5/api envelope and
// never cached. /healthz says the process runs and touches nothing else. /readyz says this instance should
// get work: the database answers within READY_DB_TIMEOUT_MS, its migrations are at head (an instance started
// against an older schema, or a newer one, is not ready), and the server is not draining (SIGTERM).

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

export type Readiness = { ready: true; migration: string } | { ready: false; reason: string };

export async function readiness(deps: Pick<Deps, 'db' | 'lifecycle'>): Promise<Readiness> {
  if (deps.lifecycle?.draining) return { ready: false, reason: 'draining' };
  try {
    const { rows } = await withTimeout(sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(deps.db), READY_DB_TIMEOUT_MS);
    const applied = rows[0]?.name ?? '';
    if (applied !== HEAD_MIGRATION) return { ready: false, reason: `migrations not at head (database ${applied || 'empty'}, code ${HEAD_MIGRATION})` };
    return { ready: true, migration: applied };
  } catch (err) {
    return { ready: false, reason: `database: ${err instanceof Error ? err.message : String(err)}` };
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
    return r.ready ? c.json({ status: 'ready', migration: r.migration }) : c.json({ status: 'not_ready', reason: r.reason }, 503);
  });
  return app;
}
