// Migration 022: projects gain their carbon-tax facts; rows written before get the host country of their
// country's name and every other fact unknown, which the engine reads as "unknown", never as eligible.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { down, up } from '../../src/server/db/migrations/022-project-icc';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.running.scheduler.stop();
});
afterAll(async () => s?.close());

it('fills the host country from the country name, leaves the rest unknown, and refuses a status it does not know', async () => {
  await s.db.updateTable('projects').set({ country: 'Atlantis' }).where('location', '=', 'Viti Levu, Fiji').execute();
  await down(s.db as never);
  await up(s.db as never);
  const rows = await s.db.selectFrom('projects').selectAll().execute();
  expect(rows.find((r) => r.location === 'Ca Mau, Vietnam')).toMatchObject({ host_country: 'VN', programme: '', authorisation: 'unknown', adjustment: 'unknown', reduction_start: null });
  expect(rows.find((r) => r.location === 'Ashanti, Ghana')).toMatchObject({ host_country: 'GH', authorisation: 'unknown' });
  expect(rows.find((r) => r.country === 'Atlantis')).toMatchObject({ host_country: '' });
  await expect(
    s.db
      .updateTable('projects')
      .set({ authorisation: 'maybe' as never })
      .where('id', '=', rows[0]!.id)
      .execute(),
  ).rejects.toThrow();
});
