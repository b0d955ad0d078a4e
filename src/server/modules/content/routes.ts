import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { pageQuery, type Banner, type ContentPage, type FaqItem } from '../../../shared/schemas/content';

// FAQ, about, protocol and privacy pages, and the home banners: content kept in the database. Public
// answers, kept by the response cache (lib/response-cache.ts); nothing publishes a change of content
// today, so a kept answer lives its safety age at most (docs/decisions/0015-scale.md).
export const contentRoutes = new Hono<AppEnv>();

contentRoutes.get('/faq', (c) =>
  answerPublic(c, ['content'], {}, async () => {
    const rows = await c.get('deps').db.selectFrom('faqs').selectAll().orderBy('sort').orderBy('id').execute();
    const list: FaqItem[] = rows.map(({ id, question, question_cn, answer, answer_cn }) => ({ id, question, question_cn, answer, answer_cn }));
    return { data: { list, total: list.length, page: 1, page_size: list.length } };
  }),
);

contentRoutes.get('/page', async (c) => {
  const { slug } = parse(pageQuery, await input(c));
  return answerPublic(c, ['content'], { slug }, async () => {
    const row = await c.get('deps').db.selectFrom('pages').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!row) throw new AppError('not_found');
    return { data: row as ContentPage };
  });
});

contentRoutes.get('/banners', (c) =>
  answerPublic(c, ['content'], {}, async () => {
    const rows = await c.get('deps').db.selectFrom('banners').selectAll().orderBy('sort').orderBy('id').execute();
    const list: Banner[] = rows.map(({ id, title, title_cn, image, link }) => ({ id, title, title_cn, image, link }));
    return { data: { list, total: list.length, page: 1, page_size: list.length } };
  }),
);
