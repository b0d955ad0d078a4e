import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { I18nProvider } from '@lingui/react';
import { routeTree } from './route-tree.gen';
import { activateLocale, i18n } from './lib/i18n';
import { getStoredLocale } from './lib/storage';
import { PendingView } from './components/pending-view';
import { LAZY_PAGE_DELAY_MS } from '../shared/constants';
import { setupRuntime } from './app-runtime';
import './styles/base.css';
import './styles/kit.css';

const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  defaultPendingMs: LAZY_PAGE_DELAY_MS,
  defaultPendingMinMs: 0,
  defaultPendingComponent: PendingView,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

const socket = setupRuntime(() => {
  if (!router.state.location.pathname.startsWith('/pages/login')) void router.navigate({ to: '/pages/login/index' });
});
// After every route change: open or close the live socket (SPEC section 4).
router.subscribe('onResolved', () => socket.sync());

void activateLocale(getStoredLocale()).then(() => {
  const root = createRoot(document.getElementById('root')!);
  // A transition lets React yield while it renders the first screen, so the boot shell stays responsive
  // and no single long task blocks input (Total Blocking Time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </StrictMode>,
    ),
  );
});
