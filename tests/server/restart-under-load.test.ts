// A restart while another instance writes or migrates (docs/operations.md#restarts): on PostgreSQL every
// write transaction takes one advisory lock (db/tx.ts), so a start's first run of due work waits for its turn
// behind the other instance's writes. The instance listens and answers /readyz (ready, catching up) without
// waiting for it; the due work is done once the lock is free. Nor does a start whose database is at head wait
// for the migration lock. PostgreSQL only (npm run test:pg): SQLite is one instance by design.
import { expect, it } from 'vitest';
import pg from 'pg';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { onPostgres } from '../helpers/database';
import { dueOrdersLeft, seedDueOrders } from '../helpers/due-orders';
import { makeProject, makeUser } from './market-helpers';

/** db/tx.ts's WRITE_LOCK: the key every write transaction locks. */
const WRITE_LOCK = 0x63616e6f;

it.skipIf(!onPostgres)('answers /readyz while its first run of due work waits for the write lock', async () => {
  const dataDir = makeTmpDir('canopy-restart-load-');
  const first = await startTestServer({ DATA_DIR: dataDir });
  const u = await makeUser(first, { cents: 0 });
  const pid = await makeProject(first);
  await seedDueOrders(first.db, { userId: u.id, projectId: pid, now: first.clock.now(), count: 20 });
  await first.running.close();

  // Another instance's long write: the lock held from a connection of its own.
  const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await holder.connect();
  await holder.query('select pg_advisory_lock($1)', [WRITE_LOCK]);
  let second: TestServer | null = null;
  let released = false;
  try {
    const started = startTestServer({ DATA_DIR: dataDir }, { waitFirstRun: false });
    second = await Promise.race([started, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    expect(second, 'the server listens while the write lock is held').not.toBeNull();
    const res = await fetch(`${second!.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', catching_up: true });
    expect(await dueOrdersLeft(second!.db, second!.clock.now())).toBe(20);

    await holder.query('select pg_advisory_unlock($1)', [WRITE_LOCK]);
    released = true;
    await second!.running.firstRun;
    expect(await dueOrdersLeft(second!.db, second!.clock.now())).toBe(0);
    const after = await fetch(`${second!.url}/readyz`);
    expect(await after.json()).not.toHaveProperty('catching_up');
  } finally {
    if (!released) await holder.query('select pg_advisory_unlock($1)', [WRITE_LOCK]);
    await holder.end();
    await second?.close();
  }
}, 120_000);

/** Kysely's migration lock on PostgreSQL (its PostgresAdapter's LOCK_ID): held while an instance migrates. */
const MIGRATION_LOCK = '3853314791062309107';

it.skipIf(!onPostgres)('starts without the migration lock when its database is at head', async () => {
  const dataDir = makeTmpDir('canopy-restart-at-head-');
  const first = await startTestServer({ DATA_DIR: dataDir });
  await first.running.close();

  // Another instance in its migrations (or stuck in one): the lock held from a connection of its own.
  const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await holder.connect();
  await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
  const started = startTestServer({ DATA_DIR: dataDir });
  let second: TestServer | null = null;
  try {
    second = await Promise.race([started, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    expect(second, 'the server listens while the migration lock is held').not.toBeNull();
    const res = await fetch(`${second!.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready' });
  } finally {
    await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    await holder.end();
    await (second ?? (await started)).close();
  }
}, 120_000);
