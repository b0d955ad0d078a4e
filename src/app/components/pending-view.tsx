import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { LAZY_PAGE_TIMEOUT_MS } from '../../shared/constants';
import { LoadingState } from './empty-state';

// Shown while a lazy route loads (after 200 ms, set on the router). After 60 s it asks the user to tap the
// screen to retry, and a tap reloads the page (docs/product.md#error-catalogue, docs/product.md#limits).
export function PendingView() {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setTimedOut(true), LAZY_PAGE_TIMEOUT_MS);
    return () => clearTimeout(id);
  }, []);
  if (timedOut) return <RetryOverlay />;
  return <LoadingState />;
}

export function RetryOverlay() {
  return (
    <button type="button" className="overlay" style={{ border: 0, width: '100%', cursor: 'pointer' }} onClick={() => window.location.reload()}>
      <span>
        <strong>
          <Trans>The connection timed out.</Trans>
        </strong>
        <br />
        <Trans>Tap the screen to retry.</Trans>
      </span>
    </button>
  );
}
