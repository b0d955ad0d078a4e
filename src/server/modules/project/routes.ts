import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { idQuery, projectListQuery } from '../../../shared/schemas/content';
import { listProjects, projectDetail } from './service';

export const projectRoutes = new Hono<AppEnv>();

// Public answers, kept by the response cache (lib/response-cache.ts) until an event about projects or the
// next selling/end time among them.
projectRoutes.get('/lists', async (c) => {
  const q = parse(projectListQuery, await input(c));
  return answerPublic(c, ['projects'], q, () => listProjects(c.get('deps'), q));
});

projectRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  return answerPublic(c, ['project:*', `project:${id}`], { id }, () => projectDetail(c.get('deps'), id));
});
