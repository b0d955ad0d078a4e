import { PROJECT_TYPES, PUBLIC_PROJECT_STATUSES, type ProjectType } from '../../../shared/schemas/content';

// The project tab's filters live in the URL (?status=&type=&q=), so a shared or reloaded link shows the same list.
export type PublicStatus = (typeof PUBLIC_PROJECT_STATUSES)[number];

export interface ProjectSearch {
  status?: PublicStatus;
  type?: ProjectType;
  q?: string;
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === 'string' && (list as readonly string[]).includes(value);

/** validateSearch of /pages/project/index: unknown values are dropped rather than failing the route. */
export function validateProjectSearch(raw: Record<string, unknown>): ProjectSearch {
  const out: ProjectSearch = {};
  if (isOneOf(PUBLIC_PROJECT_STATUSES, raw.status)) out.status = raw.status;
  if (isOneOf(PROJECT_TYPES, raw.type)) out.type = raw.type;
  const q = typeof raw.q === 'string' || typeof raw.q === 'number' ? String(raw.q).trim().slice(0, 140) : '';
  if (q) out.q = q;
  return out;
}

/** validateSearch of the detail routes (?id=): a missing or malformed id becomes 0, which shows "not found". */
export function validateIdSearch(raw: Record<string, unknown>): { id: number } {
  const id = Number(raw.id);
  return { id: Number.isSafeInteger(id) && id > 0 ? id : 0 };
}
