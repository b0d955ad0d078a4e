import { Hono } from 'hono';
import { pageOf } from '../../db/paging';
import type { Selectable } from 'kysely';
import type { AppEnv } from '../../app';
import { AppError, input, ok, parse } from '../../lib/http';
import { idQuery, newsListQuery, type NewsItem } from '../../../shared/schemas/content';
import type { NewsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';

export const newsRoutes = new Hono<AppEnv>();

function toNews(n: Selectable<NewsTable>): NewsItem {
  return {
    id: n.id,
    title: n.title,
    title_cn: n.title_cn || n.title,
    summary: n.summary,
    summary_cn: n.summary_cn || n.summary,
    body: n.body,
    body_cn: n.body_cn || n.body,
    image: n.image,
    published_at: isoSgt(n.published_at),
    published_at_ms: n.published_at,
  };
}

newsRoutes.get('/lists', async (c) => {
  const q = parse(newsListQuery, await input(c));
  const { db, clock } = c.get('deps');
  const visible = db.selectFrom('news').where('published_at', '<=', clock.now());
  return ok(c, await pageOf(visible, q, (b) => b.selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc'), toNews));
});

newsRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  const { db, clock } = c.get('deps');
  const row = await db.selectFrom('news').selectAll().where('id', '=', id).where('published_at', '<=', clock.now()).executeTakeFirst();
  if (!row) throw new AppError('not_found');
  return ok(c, toNews(row));
});
