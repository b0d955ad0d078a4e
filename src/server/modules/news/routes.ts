import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { idQuery, newsListQuery } from '../../../shared/schemas/content';
import { listNews, newsItem } from './service';

export const newsRoutes = new Hono<AppEnv>();

// Public answers, kept by the response cache (lib/response-cache.ts) until an event about news or the time
// the next scheduled item appears.
newsRoutes.get('/lists', async (c) => {
  const q = parse(newsListQuery, await input(c));
  return answerPublic(c, ['news'], q, () => listNews(c.get('deps'), q));
});

newsRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  return answerPublic(c, ['news:*', `news:${id}`], { id }, () => newsItem(c.get('deps'), id));
});
