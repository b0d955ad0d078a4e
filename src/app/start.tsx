import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { I18nProvider } from '@lingui/react';
import { routeTree } from './route-tree.gen';
import { activateLocale, ensureAllMessages, i18n } from './lib/i18n';
import { getStoredLocale } from './lib/storage';
import { get } from './lib/api';
import { watchReachability } from './lib/online';
import { PATHS } from '../shared/api';
import { PendingView } from './components/pending-view';
import { RouteError } from './components/error-state';
import { LAZY_PAGE_DELAY_MS } from '../shared/constants';
import { setupRuntime } from './app-runtime';
import { noticeOnRoute } from './components/page-notice';
import { firstScreen, isHome } from './lib/first-run';
import { mark } from './lib/marks';
import { readEarlyHome } from './features/home/home-data';
import { dropLateEarly, PROJECT_KEY, PROJECT_LIST_KEY, readEarly } from './lib/early-read';
import { refreshProject } from './lib/sync';
import { validateIdSearch } from './features/projects/project-search';
import type { Project } from '../shared/schemas/content';
import { keepSnapshots } from './lib/boot-snapshot';
import { deferStore, drawsBeforeStore, loadStore } from './lib/store';

// The app, started by main.tsx once the boot shell has painted and React is loaded. The offline store
// (Dexie) loads at once for any screen but home; home's first screen draws without it (lib/store.ts).

/** The next task: what ran before it is one task, what follows another. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function makeRouter() {
  return createRouter({
    routeTree,
    defaultPreload: 'intent',
    defaultPendingMs: LAZY_PAGE_DELAY_MS,
    defaultPendingMinMs: 0,
    defaultPendingComponent: PendingView,
    // A screen that throws (e.g. its cache read failed) says what happened instead of going blank.
    defaultErrorComponent: RouteError,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}


/** The first screen's data, read while its route and texts load (lib/early-read.ts): home's banners, projects
 *  and news (from the device, without the store), and the project tab's list when no filter is set (a
 *  filtered list reads its own). */
function firstData(path: string, search: string): Promise<unknown> | undefined {
  if (isHome(path)) return readEarlyHome();
  if (path === '/pages/project/index' && (search === '' || search === '?'))
    return readEarly(PROJECT_LIST_KEY('', '', '', '', ''), async () => (await import('./lib/cached-projects')).cachedProjects({ status: '', type: '', q: '' }));
  return undefined;
}

/** The screens about one project (`?id=`), which read it with lib/project.ts; the detail draws its image
 *  first (its largest paint). */
const PROJECT_SCREENS = new Set(['/pages/project/project', '/pages/project/info', '/pages/project/dproject', '/pages/project/dpresale', '/pages/project/dsell']);

/**
 * A start on a project's screen asks the server for the project at once, beside the app's code, instead
 * of once its screen first renders (after its code, its texts and the store): its first render then draws
 * the project, and the detail's image starts loading as soon as its address is known. Without this the
 * read and then the image are two more round trips after everything else, the last steps before the
 * screen's largest paint (bench/lighthouse.ts). The read's key and a promise that resolves once the project
 * is read (lib/early-read.ts keeps it for the screen); undefined for any other screen.
 */
function readProjectEarly(path: string, search: string): { key: string; read: Promise<void> } | undefined {
  if (!PROJECT_SCREENS.has(path)) return undefined;
  const { id } = validateIdSearch(Object.fromEntries(new URLSearchParams(search)));
  if (!id) return undefined;
  const detail = path === '/pages/project/project';
  // The first answer (the service worker's copy, else the network's), without waiting for it to be written:
  // on the detail the store loads only once the screen has drawn (lib/store.ts).
  const read = readEarly(
    PROJECT_KEY(id),
    () =>
      new Promise<Project | null>((resolve) => {
        const answered = (p: Project) => {
          if (detail) preloadImage(p.image);
          resolve(p);
        };
        refreshProject(id, undefined, { onAnswer: answered }).then(resolve, () => resolve(null));
      }),
  );
  return { key: PROJECT_KEY(id), read };
}

const preloaded = new Set<string>();
/** Starts loading an image the first screen is about to draw, at the priority its <img> asks for. */
function preloadImage(href: string): void {
  if (!href || preloaded.has(href)) return;
  preloaded.add(href);
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.appendChild(link);
}

export async function start(): Promise<void> {
  // Before anything else: a project's screen needs the project from the network (see readProjectEarly).
  const earlyProject = readProjectEarly(location.pathname, location.search);
  // A new install opening the root lands on the start screen once (docs/decisions/0005-start.md); before the
  // router reads the location, so it never draws home first.
  if (firstScreen(location.pathname) !== location.pathname) history.replaceState(history.state, '', firstScreen(location.pathname));
  // Home's first screen draws from the device and the network, a project's detail from the project read
  // ahead; the store waits (lib/store.ts). Any other screen reads the store: its code (preloaded by the boot
  // shell) runs now, in a task of its own as React's did, and the database opens beside the screen's code.
  // A failure is the screen's to show, on its own read.
  if (drawsBeforeStore(location.pathname)) deferStore();
  else {
    const store = await loadStore().catch(() => null);
    mark('store');
    void store?.db.open().catch(() => undefined);
    await nextTask();
  }
  const router = makeRouter();
  mark('router');
  await nextTask(); // the router's setup (its route tree, the history, the scroll cache) is a task of its own

  const socket = setupRuntime(() => {
    if (!router.state.location.pathname.startsWith('/pages/login')) void router.navigate({ to: '/pages/login/index' });
  });
  // After every route change: open or close the live socket (docs/product.md#live-updates).
  router.subscribe('onResolved', () => socket.sync());
  // A kept notice lasts while the member stays on its screen (components/page-notice.tsx).
  router.subscribe('onResolved', (e) => noticeOnRoute(e.toLocation.pathname));
  // The start screens' last-seen markup, for the boot shell to paint at the next start (lib/boot-snapshot.ts).
  keepSnapshots(
    () => router.state.location,
    (listener) => router.subscribe('onResolved', listener),
  );
  // While the server cannot be reached, ask it again now and then (reads answered from the service worker's
  // cache would never tell the app it is back). baseconfig is small and never cached by the worker.
  watchReachability(() => get(PATHS.baseconfig, {}, { background: true }));
  await nextTask();

  // The first screen's code, texts and data start together with the locale's core texts, instead of one
  // after another once React renders (core texts -> the router -> the rest of the texts -> the lazy route's
  // chunk -> its imports -> the IndexedDB open). Each import below is preloaded with its own imports
  // (Vite's modulepreload), all from the service worker's precache when offline.
  const locale = getStoredLocale();
  const firstPath = router.latestLocation.pathname;
  if (!isHome(firstPath)) void ensureAllMessages(locale).catch(() => undefined);
  for (const route of router.getMatchedRoutes(firstPath)[0]) void router.loadRouteChunk(route)?.catch(() => undefined);

  // The first screen's route resolved (its code loaded) before React renders: the first render, a
  // transition React yields in, then draws the whole screen. Rendered first, the router's update when the
  // route resolves would draw it again outside a transition, in one long task (Total Blocking Time).
  // A failed load is the screen's to show (the router keeps the error in its match).
  // A project read early holds the first render only while the code and texts load too: on a slow
  // connection the screen draws its loading state rather than wait on the network (it then reads the
  // project itself).
  const ready = Promise.all([activateLocale(locale), router.load().catch(() => undefined), firstData(firstPath, router.latestLocation.searchStr)]);
  if (earlyProject) {
    let inTime = false;
    await Promise.race([Promise.all([ready, earlyProject.read]).then(() => (inTime = true)), ready.then(nextTask)]);
    if (!inTime) dropLateEarly(earlyProject.key);
  } else await ready;
  mark('route');
  await nextTask();
  const root = createRoot(document.getElementById('root')!);
  // A transition lets React yield while it renders the first screen, so the boot shell stays responsive
  // and no single long task blocks input (Total Blocking Time).
  mark('render');
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </StrictMode>,
    ),
  );
}
