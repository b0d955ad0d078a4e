// The last-seen first screen, kept for the boot shell (public/boot-shell.js): once a start screen (home, the
// project tab without a filter) has drawn its cards from data, its markup (the <main> React drew) is kept in
// localStorage with what it was drawn for: the build (the entry script's URL), the language, the member and
// the stylesheets the page had. The next start at that path paints it before any of the app's code runs
// (offline cold start to the first card, bench/offline-start.ts), and React's first render, drawn from the
// same cached data (lib/early-read.ts), takes its place in one commit: the same layout, no shift.
//
// Only a screen at rest is kept: cards drawn, no placeholder, no sheet, the banner at its first slide, no
// offline bar (React draws that itself once it knows). The markup is React's own (text escaped by React);
// nothing of a member's money is on these screens.

export const BOOT_SNAPSHOT_PREFIX = 'boot_snapshot:';

/** The paths a snapshot is kept for, by the key the boot shell looks up (home has two paths). */
export function snapshotKey(pathname: string, search: string): string | null {
  if (search !== '' && search !== '?') return null;
  if (pathname === '/' || pathname === '/pages/index/index') return BOOT_SNAPSHOT_PREFIX + 'home';
  if (pathname === '/pages/project/index') return BOOT_SNAPSHOT_PREFIX + 'projects';
  return null;
}

export interface BootSnapshot {
  build: string;
  lang: string | null;
  member: number;
  htmlLang: string;
  css: string[];
  html: string;
}

/** The entry script's URL: a new build draws other markup. */
export const buildId = (): string => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? '';

function memberId(): number {
  try {
    return (JSON.parse(localStorage.getItem('login_info') ?? 'null') as { mem_id?: number } | null)?.mem_id ?? 0;
  } catch {
    return 0;
  }
}

/** The screen now on display, as a snapshot, or null when it is not at rest. */
export function takeSnapshot(): BootSnapshot | null {
  const main = document.querySelector('#root main.app-main');
  const page = main?.querySelector(':scope > .page');
  if (!main || !page || main.children.length !== 1) return null;
  if (!page.querySelector('[data-testid="project-card"]') || page.querySelector('.skeleton, [role="dialog"], .sheet')) return null;
  const track = page.querySelector<HTMLElement>('.swiper__track');
  if (track && !/^translateX\(-?0(%|px)?\)$/.test(track.style.transform)) return null;
  const clone = main.cloneNode(true) as Element;
  clone.querySelectorAll('[data-testid="offline-bar"]').forEach((e) => e.remove());
  return {
    build: buildId(),
    lang: localStorage.getItem('language'),
    member: memberId(),
    htmlLang: document.documentElement.lang,
    css: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => new URL(l.href).pathname),
    html: clone.outerHTML,
  };
}

/** Keeps the screen now on display for the next start at `pathname`, when it is one and at rest. */
export function saveSnapshot(pathname: string, search: string): boolean {
  const key = snapshotKey(pathname, search);
  const snapshot = key ? takeSnapshot() : null;
  if (!key || !snapshot) return false;
  try {
    localStorage.setItem(key, JSON.stringify(snapshot));
    return true;
  } catch {
    return false; // storage full or disabled: the next start paints the plain boot shell
  }
}

/** Forgets every snapshot (a sign-out: the next member's start must not show the last one's screen). */
export function clearSnapshots(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(BOOT_SNAPSHOT_PREFIX)) localStorage.removeItem(key);
  } catch {
    // storage disabled: nothing was kept
  }
}

/** How long after a route change its screen's changes are still kept (its data's refresh included). */
const KEEP_FOR_MS = 15_000;

/**
 * Keeps each start screen's snapshot: whenever it has settled at rest in the first seconds after a route
 * change (its cached cards, then the network's), and when the page is hidden (what was seen last).
 * `location` gives the router's current path and search.
 */
export function keepSnapshots(location: () => { pathname: string; searchStr: string }, onRouteChange: (listener: () => void) => void): void {
  let observer: MutationObserver | null = null;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let end: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    observer?.disconnect();
    observer = null;
    clearTimeout(settle);
    clearTimeout(end);
  };
  const save = () => void saveSnapshot(location().pathname, location().searchStr);
  const watch = () => {
    stop();
    const { pathname, searchStr } = location();
    if (!snapshotKey(pathname, searchStr)) return;
    // Checked once the screen has been still for a moment, not on every change.
    const check = () => {
      clearTimeout(settle);
      settle = setTimeout(save, 300);
    };
    observer = new MutationObserver(check);
    observer.observe(document.getElementById('root')!, { childList: true, subtree: true, characterData: true, attributes: true });
    end = setTimeout(stop, KEEP_FOR_MS);
    check();
  };
  onRouteChange(watch);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save();
  });
}
