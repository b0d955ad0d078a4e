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
import { firstScreen } from './lib/first-run';
import { mark } from './lib/marks';
import { readEarlyHome } from './features/home/home-data';
import { PROJECT_LIST_KEY, readEarly } from './lib/early-read';
import { keepSnapshots } from './lib/boot-snapshot';
import { deferStore, loadStore } from './lib/store';

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

const isHome = (path: string) => path === '/' || path === '/pages/index/index';

/** The first screen's data, read while its route and texts load (lib/early-read.ts): home's banners, projects
 *  and news (from the device, without the store), and the project tab's list when no filter is set (a
 *  filtered list reads its own). */
function firstData(path: string, search: string): Promise<unknown> | undefined {
  if (isHome(path)) return readEarlyHome();
  if (path === '/pages/project/index' && (search === '' || search === '?'))
    return readEarly(PROJECT_LIST_KEY('', '', '', '', ''), async () => (await import('./lib/cached-projects')).cachedProjects({ status: '', type: '', q: '' }));
  return undefined;
}

export async function start(): Promise<void> {
  // A new install opening the root lands on the start screen once (docs/decisions/0005-start.md); before the
  // router reads the location, so it never draws home first.
  if (firstScreen(location.pathname) !== location.pathname) history.replaceState(history.state, '', firstScreen(location.pathname));
  // Home's first screen draws from the device and the network; the store waits until it has settled.
  // Any other screen reads the store: its code (preloaded by the boot shell) runs now, in a task of its own
  // as React's did, and the database opens beside the screen's code. A failure is the screen's to show, on
  // its own read.
  if (isHome(location.pathname)) deferStore();
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
  await Promise.all([activateLocale(locale), router.load().catch(() => undefined), firstData(firstPath, router.latestLocation.searchStr)]);
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
