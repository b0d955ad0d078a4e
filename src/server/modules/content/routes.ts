import { Hono } from 'hono';
import type { AppEnv } from '../../app';
import { AppError, input, ok, parse } from '../../lib/http';
import { pageQuery, type Banner, type ContentPage, type FaqItem } from '../../../shared/schemas/content';

// FAQ, about, protocol and privacy pages, and the home banners: content kept in the database.
export const contentRoutes = new Hono<AppEnv>();

contentRoutes.get('/faq', async (c) => {
  const rows = await c.get('deps').db.selectFrom('faqs').selectAll().orderBy('sort').orderBy('id').execute();
  const list: FaqItem[] = rows.map(({ id, question, question_cn, answer, answer_cn }) => ({ id, question, question_cn, answer, answer_cn }));
  return ok(c, { list, total: list.length, page: 1, page_size: list.length });
});

contentRoutes.get('/page', async (c) => {
  const { slug } = parse(pageQuery, await input(c));
  const row = await c.get('deps').db.selectFrom('pages').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!row) throw new AppError('not_found');
  return ok(c, row as ContentPage);
});

contentRoutes.get('/banners', async (c) => {
  const rows = await c.get('deps').db.selectFrom('banners').selectAll().orderBy('sort').orderBy('id').execute();
  const list: Banner[] = rows.map(({ id, title, title_cn, image, link }) => ({ id, title, title_cn, image, link }));
  return ok(c, { list, total: list.length, page: 1, page_size: list.length });
});
