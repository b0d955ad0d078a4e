import { lazy, Suspense, useEffect, useState } from 'react';
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { ToastLayer } from '../components/toast';
import { RetryOverlay } from '../components/pending-view';
import { StorageAlert } from '../components/storage-alert';
import { onRequestTimeout } from '../app-runtime';
import { ensureAllMessages } from '../lib/i18n';
import { drawsBeforeStore, loadStore } from '../lib/store';
import { isHome } from '../lib/first-run';

// Once the first screen has settled, the service worker is registered (and the update prompt mounted) and
// the offline store loads if home's first screen went without it (lib/store.ts).
const UpdatePrompt = lazy(() => import('../components/update-prompt').then((m) => ({ default: m.UpdatePrompt })));
const SW_DELAY_MS = 2500;

function Root() {
  const [timedOut, setTimedOut] = useState(false);
  const [settled, setSettled] = useState(false);
  useEffect(() => onRequestTimeout(() => setTimedOut(true)), []);
  useEffect(() => {
    const id = setTimeout(() => {
      setSettled(true);
      void loadStore().catch(() => undefined); // offline before its code was cached: the next need tries again
    }, SW_DELAY_MS);
    return () => clearTimeout(id);
  }, []);
  return (
    <div className="app-shell">
      <StorageAlert />
      {/* One main landmark around every screen (its header and tab bar stay their own landmarks inside). */}
      <main className="app-main">
        <Outlet />
      </main>
      <ToastLayer />
      {settled && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
      {timedOut && <RetryOverlay />}
    </div>
  );
}

function NotFound() {
  return (
    <div className="empty">
      <p>
        <Trans>This page does not exist.</Trans>
      </p>
      <a className="btn" href="/">
        <Trans>Go home</Trans>
      </a>
    </div>
  );
}

// Home draws only `core` texts and goes without the offline store; every other screen waits for the rest of
// the catalog (loaded right after start, so this rarely waits at all) and loads the store (its code comes
// with the screen's), but a project's detail, which loads it once it has drawn (lib/store.ts).

export const Route = createRootRoute({
  beforeLoad: async ({ location }) => {
    if (isHome(location.pathname)) return;
    if (!drawsBeforeStore(location.pathname)) void loadStore().catch(() => undefined); // the screen's own read says what failed
    await ensureAllMessages();
  },
  component: Root,
  notFoundComponent: NotFound,
});
