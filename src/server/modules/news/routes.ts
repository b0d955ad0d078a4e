import { Hono } from 'hono';
import { keysetPage, NO_MEMO } from '../../db/paging';
import type { Selectable } from 'kysely';
import type { AppEnv } from '../../env';
import { AppError, input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
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

// Public answers, kept by the response cache (lib/response-cache.ts) until an event about news or the time
// the next scheduled item appears.
newsRoutes.get('/lists', async (c) => {
  const q = parse(newsListQuery, await input(c));
  return answerPublic(c, ['news'], q, async () => {
    const { db, clock, publicCache } = c.get('deps');
    const now = clock.now();
    // What is visible changes only when a scheduled item's time comes: until then the same rows, so the
    // total and page positions are kept per window (named by its end).
    const next = await db.selectFrom('news').select((eb) => eb.fn.min('published_at').as('at')).where('published_at', '>', now).executeTakeFirst();
    const until = next?.at == null ? Infinity : Number(next.at);
    const page = await keysetPage({
      base: db.selectFrom('news').where('published_at', '<=', now),
      keys: ['published_at', 'id'],
      q,
      memo: publicCache?.memoFor('news') ?? NO_MEMO,
      filter: `before:${until}`,
      select: (b) => b.selectAll(),
      map: toNews,
    });
    return { data: page, until };
  });
});

newsRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  return answerPublic(c, ['news:*', `news:${id}`], { id }, async () => {
    const { db, clock } = c.get('deps');
    // Unpublished (scheduled) items are not found: a refusal, never kept, so it shows once its time comes.
    const row = await db.selectFrom('news').selectAll().where('id', '=', id).where('published_at', '<=', clock.now()).executeTakeFirst();
    if (!row) throw new AppError('not_found');
    return { data: toNews(row) };
  });
});
