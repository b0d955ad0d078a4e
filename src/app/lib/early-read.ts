// What the first screen of a start shows, read while its route and texts load (start.tsx), so its first
// render draws the content instead of placeholders that a second render replaces (offline cold start to the
// first project card, bench/offline-start.ts: ~55 ms on home). Each is taken once: a later visit to the screen
// starts from its live query, since an early list would be stale by then.

const early = new Map<string, unknown>();
/** Keys whose answer came too late for the first render: not kept when it comes. */
const late = new Set<string>();

/** Runs `read` now and keeps its answer under `key` for takeEarly; a failed read leaves it to the screen. */
export function readEarly<T>(key: string, read: () => Promise<T>): Promise<void> {
  return read().then(
    (value) => void (late.delete(key) || early.set(key, value)),
    () => undefined,
  );
}

/** The first render went ahead without `key`'s answer (still on its way): the screen reads its own, and the
 *  answer is not kept, so a later visit to the screen never draws it as if it were fresh. */
export function dropLateEarly(key: string): void {
  if (!early.has(key)) late.add(key);
}

/** The early answer of `key`, once (undefined when there is none). */
export function takeEarly<T>(key: string): T | undefined {
  const value = early.get(key) as T | undefined;
  early.delete(key);
  return value;
}

/** The project tab's list with no filter (features/projects/use-project-list.ts reads the same key). */
export const PROJECT_LIST_KEY = (status: string, type: string, q: string, standard: string, sort: string, icc = '') => `projects:${status}|${type}|${q}|${standard}|${sort}|${icc}`;

/** One project, as the screens about it read it (lib/project.ts). */
export const PROJECT_KEY = (id: number) => `project:${id}`;
