import { Hono } from 'hono';
import type { AppEnv } from '../../app';
import { AppError, input, ok, parse } from '../../lib/http';
import { idQuery, projectListQuery } from '../../../shared/schemas/content';
import { findVisibleProject, listProjects, toProject } from './service';

export const projectRoutes = new Hono<AppEnv>();

projectRoutes.get('/lists', async (c) => {
  const q = parse(projectListQuery, await input(c));
  const { db, clock } = c.get('deps');
  return ok(c, await listProjects(db, q, clock.now()));
});

projectRoutes.get('/detail', async (c) => {
  const { id } = parse(idQuery, await input(c));
  const { db, clock } = c.get('deps');
  const row = await findVisibleProject(db, id);
  if (!row) throw new AppError('not_found');
  return ok(c, toProject(row, clock.now()));
});
