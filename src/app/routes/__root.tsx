import { useEffect, useState } from 'react';
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { ToastLayer } from '../components/toast';
import { RetryOverlay } from '../components/pending-view';
import { UpdatePrompt } from '../components/update-prompt';
import { onRequestTimeout } from '../app-runtime';

function Root() {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => onRequestTimeout(() => setTimedOut(true)), []);
  return (
    <div className="app-shell">
      <Outlet />
      <ToastLayer />
      <UpdatePrompt />
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

export const Route = createRootRoute({ component: Root, notFoundComponent: NotFound });
