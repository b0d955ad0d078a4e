// A restart with a backlog of due work (docs/operations.md#restarts): the server answers as soon as it
// listens, the due work is done after that in bounded runs, and /readyz says it is catching up meanwhile
// (still 200: requests are answered correctly). On SQLite and PostgreSQL (npm run test:pg). The time to
// listen is a figure of bench/restart.ts, not asserted here.
import { expect, it } from 'vitest';
import { makeTmpDir, startTestServer } from '../helpers/server';
import { dueOrdersLeft, seedDueOrders } from '../helpers/due-orders';
import { makeProject, makeUser } from './market-helpers';

const BACKLOG = 10_000;

it('listens before the backlog of 10,000 due orders is done, and works it off after', async () => {
  const dataDir = makeTmpDir('canopy-restart-backlog-');
  const first = await startTestServer({ DATA_DIR: dataDir });
  const u = await makeUser(first, { cents: 0 });
  const pid = await makeProject(first);
  await seedDueOrders(first.db, { userId: u.id, projectId: pid, now: first.clock.now(), count: BACKLOG });
  await first.running.close();

  const second = await startTestServer({ DATA_DIR: dataDir });
  try {
    const health = await fetch(`${second.url}/healthz`);
    expect(health.status).toBe(200);
    const left = await dueOrdersLeft(second.db, second.clock.now());
    expect(left).toBeGreaterThan(0);
    // While work is left after a bounded run, readiness says it is catching up, still 200.
    let ready: { status: number; body: unknown } = { status: 0, body: null };
    for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      const res = await fetch(`${second.url}/readyz`);
      ready = { status: res.status, body: await res.json() };
      if ((ready.body as { catching_up?: boolean }).catching_up) break;
    }
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', migration: expect.any(String), catching_up: true });
    expect(second.running.scheduler.catchingUp()).toBe(true);
    expect(await dueOrdersLeft(second.db, second.clock.now())).toBeGreaterThan(0);
    // The backlog goes down without a request asking for it.
    for (const end = Date.now() + 30_000; Date.now() < end && (await dueOrdersLeft(second.db, second.clock.now())) >= left; ) await new Promise((r) => setTimeout(r, 100));
    expect(await dueOrdersLeft(second.db, second.clock.now())).toBeLessThan(left);
  } finally {
    await second.close();
  }
}, 120_000);
