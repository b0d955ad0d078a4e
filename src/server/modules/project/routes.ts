import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, input, parse } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { idQuery, projectListQuery } from '../../../shared/schemas/content';
import { findVisibleProject, listProjects, nextBoundary, toProject } from './service';

export const projectRoutes = new Hono<AppEnv>();

// Public answers, kept by the response cache (lib/response-cache.ts) until an event about projects or the
// next selling/end time among them.
projectRoutes.get('/lists', async (c) => {
  const q = parse(projectListQuery, await input(c));
  return answerPublic(c, ['projects'], q, async () => {
    const { db, clock, publicCache } = c.get('deps');
    const { page, until } = await listProjects(db, q, clock.now(), publicCache?.memoFor('projects'));
    return { data: page, until };
  });
});

projectRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  return answerPublic(c, ['project:*', `project:${id}`], { id }, async () => {
    const { db, clock } = c.get('deps');
    const row = await findVisibleProject(db, id);
    if (!row) throw new AppError('not_found');
    const now = clock.now();
    const project = toProject(row, now);
    return { data: project, until: nextBoundary([project], now) };
  });
});
