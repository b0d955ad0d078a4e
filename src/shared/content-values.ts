// Project value lists and their types, with no schema library attached (the home bundle uses them).
export const PROJECT_STATUSES = ['pending_review', 'presale', 'in_progress', 'closed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const PUBLIC_PROJECT_STATUSES = ['presale', 'in_progress', 'closed'] as const;

export const PROJECT_TYPES = ['forestry', 'mangrove', 'renewable', 'cookstove', 'methane', 'blue_carbon', 'soil'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_STANDARDS = ['VCS', 'Gold Standard'] as const;
export const CYCLE_UNITS = ['days', 'hours', 'minutes'] as const;

/** Why a project cannot be joined now: docs/product.md#projects. null when it can. */
export type JoinBlock = 'not_started' | 'ended' | 'full' | 'paused' | null;

