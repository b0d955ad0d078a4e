// Liveness and readiness (docs/operations.md): /healthz while the process runs; /readyz only while the database
// answers, its migrations are at head and the server is not draining. Both outside the envelope, never
// cached. The SIGTERM case runs the real server process (src/server/main.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { HEAD_MIGRATION } from '../../src/server/db/migrate';
import { readiness } from '../../src/server/lib/health';
import { REPO_ROOT, makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { databaseEnv, dropDatabase } from '../helpers/database';
import type { DB } from '../../src/server/db/connection';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('health and readiness', () => {
  it('/healthz answers 200 and is never cached', async () => {
    const res = await fetch(`${s.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz answers 200 with the migration at head', async () => {
    const res = await fetch(`${s.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', migration: HEAD_MIGRATION });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz answers 503 when the database is behind the code, and 200 again once it is not', async () => {
    const last = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${HEAD_MIGRATION}`.execute(s.db);
    await sql`delete from kysely_migration where name = ${HEAD_MIGRATION}`.execute(s.db);
    try {
      const res = await fetch(`${s.url}/readyz`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { reason: string }).reason).toMatch(/migrations not at head/);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      const row = last.rows[0]!;
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(s.db);
    }
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
  });

  it('is not ready when the database cannot be reached (answers within about a second)', async () => {
    // A PostgreSQL that is not there: port 1 on loopback refuses at once.
    const dead = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 5000 }) }) });
    try {
      const t0 = Date.now();
      const r = await readiness({ db: dead as unknown as DB });
      expect(r).toMatchObject({ ready: false, reason: expect.stringMatching(/^database: /) });
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      await dead.destroy();
    }
  });

  it('is not ready while draining, and still answers requests meanwhile', async () => {
    const other = await startTestServer();
    try {
      other.running.drain();
      const res = await fetch(`${other.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not_ready', reason: 'draining' });
      expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
      expect((await other.api('GET', '/api/login/baseconfig')).code).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('SIGTERM: readiness fails at once, the server keeps answering for SHUTDOWN_DRAIN_MS, then exits', async () => {
    const dataDir = makeTmpDir();
    const env = { ...process.env, ...(await databaseEnv(dataDir)), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_DRAIN_MS: '1500', SEED_DEMO: '0' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on('exit', () => reject(new Error(`exited: ${out}`)));
      });
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const t0 = Date.now();
      child.kill('SIGTERM');
      // Until the child is gone (not for a fixed second: on a loaded machine the signal can take that long
      // to be handled). 503 from /readyz while /healthz still answers 200 is the drain, before the close.
      let sawDraining = false;
      for (let i = 0; i < 400 && !sawDraining && child.exitCode === null; i++) {
        const r = await fetch(`${url}/readyz`).catch(() => null);
        if (r?.status === 503) {
          sawDraining = true;
          expect((await fetch(`${url}/healthz`)).status).toBe(200);
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      // Killed by the signal itself: the handler was not yet installed when the server already listened.
      expect(child.signalCode, 'ended by SIGTERM before its handler was installed').toBeNull();
      expect(sawDraining).toBe(true);
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await dropDatabase(dataDir); // its PostgreSQL schema (nothing on SQLite)
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
