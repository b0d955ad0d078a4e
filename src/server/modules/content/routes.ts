import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { pageQuery } from '../../../shared/schemas/content';
import { banners, contentPage, faq } from './service';

// Public answers, kept by the response cache (lib/response-cache.ts); nothing publishes a change of content
// today, so a kept answer lives its safety age at most (docs/decisions/0015-scale.md).
export const contentRoutes = new Hono<AppEnv>();

contentRoutes.get('/faq', (c) => answerPublic(c, ['content'], {}, () => faq(c.get('deps'))));

contentRoutes.get('/page', async (c) => {
  const { slug } = parse(pageQuery, await input(c));
  return answerPublic(c, ['content'], { slug }, () => contentPage(c.get('deps'), slug));
});

contentRoutes.get('/banners', (c) => answerPublic(c, ['content'], {}, () => banners(c.get('deps'))));
