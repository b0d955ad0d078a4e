import { Hono } from 'hono';
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
  const { total } = await visible.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await visible.selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc').limit(q.page_size).offset((q.page - 1) * q.page_size).execute();
  return ok(c, { list: rows.map(toNews), total: Number(total), page: q.page, page_size: q.page_size });
});

newsRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  const { db, clock } = c.get('deps');
  const row = await db.selectFrom('news').selectAll().where('id', '=', id).where('published_at', '<=', clock.now()).executeTakeFirst();
  if (!row) throw new AppError('not_found');
  return ok(c, toNews(row));
});
