// The PostgreSQL LISTEN client (src/server/db/listen.ts): it hears NOTIFY on its channel, makes its
// connection again when the server ends it (and says so once, since notifications sent meanwhile are
// lost), and stops for good on close. PostgreSQL only (npm run test:pg).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { listen } from '../../src/server/db/listen';
import { createLogger } from '../../src/server/lib/log';
import { onPostgres, TEST_DATABASE_URL } from '../helpers/database';

const admin = onPostgres ? new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 }) : null;
afterAll(async () => {
  await admin?.end();
});

/** Waits until `check` holds (a wait only: a loaded machine can hold a round trip for seconds). */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe.skipIf(!onPostgres)('listen', () => {
  it('hears NOTIFY, comes back after its connection is ended, and stops on close', async () => {
    const channel = `canopy_test_${randomBytes(4).toString('hex')}`;
    let heard = 0;
    const listener = listen(TEST_DATABASE_URL, channel, () => heard++, createLogger('silent'));
    try {
      await until(() => heard === 1); // the call once listening
      await admin!.query(`notify ${channel}`);
      await until(() => heard === 2);
      const ended = await admin!.query(`select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen ${channel}'`);
      expect(ended.rowCount).toBe(1);
      await until(() => heard === 3); // listening again
      await admin!.query(`notify ${channel}`);
      await until(() => heard === 4);
    } finally {
      await listener.close();
    }
    await admin!.query(`notify ${channel}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toBe(4);
  });
});
