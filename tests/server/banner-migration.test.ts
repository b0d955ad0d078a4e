// Migration 014: a database seeded before the footprint screens had home's footprint banner linked to the
// start screen; the migration moves that seeded link to the questionnaire and leaves operators' banners alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { up } from '../../src/server/db/migrations/014-footprint-banner';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

it('moves the old seeded footprint banner to /pages/profile/footprint, and only that one', async () => {
  const title = 'Calculate your carbon footprint';
  await s.db.updateTable('banners').set({ link: '/pages/index/start' }).where('title', '=', title).execute();
  await s.db.insertInto('banners').values({ title: 'Start here', title_cn: '从这里开始', image: '/img/banners/1.svg', link: '/pages/index/start', sort: 99 }).execute();
  await up(s.db as never);
  const rows = await s.db.selectFrom('banners').select(['title', 'link']).where('title', 'in', [title, 'Start here']).orderBy('title').execute();
  expect(rows).toEqual([
    { title, link: '/pages/profile/footprint' },
    { title: 'Start here', link: '/pages/index/start' },
  ]);
});
