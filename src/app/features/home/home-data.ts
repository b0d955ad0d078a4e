import { db } from '../../lib/db';
import { takeEarly } from '../../lib/early-read';
import type { Project } from '../../../shared/schemas/content';

/** Joinable projects first, then in-progress before pre-sale, newest selling time first. */
export function homeOrder(a: Project, b: Project): number {
  const rank = (p: Project) => (p.join_block === null ? 0 : 2) + (p.status === 'in_progress' ? 0 : 1);
  return rank(a) - rank(b) || b.selling_time_ms - a.selling_time_ms;
}

/** Home's projects as this device keeps them (its live query, and a start's early read: lib/early-read.ts). */
export const homeProjects = async (): Promise<Project[]> => (await db.projects.where('status').anyOf('in_progress', 'presale').toArray()).sort(homeOrder);

export const HOME_PROJECTS_KEY = 'home:projects';

/** A start's early read of home's projects, once. */
export const takeEarlyHomeProjects = (): Project[] | undefined => takeEarly<Project[]>(HOME_PROJECTS_KEY);
