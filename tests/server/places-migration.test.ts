// Migration 020: projects gain the place and the country in Chinese; a database seeded before gets them for
// the seeded places, and a project of the operator's own keeps '' (shown in English) until filled.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { down, up } from '../../src/server/db/migrations/020-project-places-cn';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.running.scheduler.stop();
});
afterAll(async () => s?.close());

it('fills the seeded places and countries in Chinese, and leaves an unknown place empty', async () => {
  const seeded = await s.db.selectFrom('projects').select(['id']).where('location', '=', 'Ca Mau, Vietnam').executeTakeFirstOrThrow();
  await s.db.updateTable('projects').set({ location: 'Somewhere, Atlantis', country: 'Atlantis' }).where('location', '=', 'Viti Levu, Fiji').execute();
  await down(s.db as never);
  await up(s.db as never);
  const rows = await s.db.selectFrom('projects').select(['id', 'location', 'location_cn', 'country', 'country_cn']).execute();
  expect(rows.find((r) => r.id === seeded.id)).toMatchObject({ location_cn: '越南金瓯省', country_cn: '越南' });
  expect(rows.find((r) => r.location === 'Somewhere, Atlantis')).toMatchObject({ location_cn: '', country_cn: '' });
  // Every other project seeded when the migration was written has both (a project added to the seed later
  // carries its Chinese in its seed file, which a fresh database is seeded from).
  const later = ['Ashanti, Ghana'];
  expect(rows.filter((r) => r.location !== 'Somewhere, Atlantis' && !later.includes(r.location) && (!r.location_cn || !r.country_cn))).toEqual([]);
});
