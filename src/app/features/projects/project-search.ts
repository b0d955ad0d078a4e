import { PROJECT_STANDARDS, PROJECT_TYPES, PUBLIC_PROJECT_STATUSES, type ProjectType } from '../../../shared/content-values';

// The project tab's filters live in the URL (?status=&type=&standard=&sort=&q=&icc=), so a shared or reloaded link
// shows the same list. The server's list query knows status, type, q and icc; standard and sort are applied here,
// on the cached rows (src/shared/schemas/content.ts projectListQuery has neither).
export type PublicStatus = (typeof PUBLIC_PROJECT_STATUSES)[number];

export type ProjectStandard = (typeof PROJECT_STANDARDS)[number];
export const PROJECT_SORTS = ['price_asc', 'price_desc', 'selling_soon', 'selling_latest'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

export interface ProjectSearch {
  status?: PublicStatus;
  type?: ProjectType;
  standard?: ProjectStandard;
  sort?: ProjectSort;
  q?: string;
  /** Only projects eligible for Singapore carbon tax (docs/product.md#singapore-carbon-tax). */
  icc?: 'eligible';
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === 'string' && (list as readonly string[]).includes(value);

/** validateSearch of /pages/project/index: unknown values are dropped rather than failing the route. */
export function validateProjectSearch(raw: Record<string, unknown>): ProjectSearch {
  const out: ProjectSearch = {};
  if (isOneOf(PUBLIC_PROJECT_STATUSES, raw.status)) out.status = raw.status;
  if (isOneOf(PROJECT_TYPES, raw.type)) out.type = raw.type;
  if (isOneOf(PROJECT_STANDARDS, raw.standard)) out.standard = raw.standard;
  if (isOneOf(PROJECT_SORTS, raw.sort)) out.sort = raw.sort;
  const q = typeof raw.q === 'string' || typeof raw.q === 'number' ? String(raw.q).trim().slice(0, 140) : '';
  if (q) out.q = q;
  if (raw.icc === 'eligible') out.icc = 'eligible';
  return out;
}

/** validateSearch of the detail routes (?id=): a missing or malformed id becomes 0, which shows "not found". */
export function validateIdSearch(raw: Record<string, unknown>): { id: number } {
  const id = Number(raw.id);
  return { id: Number.isSafeInteger(id) && id > 0 ? id : 0 };
}
