import { Trans } from '@lingui/react/macro';
import { useOnline } from '../lib/online';

/** A visible "offline" state: what is shown comes from the device's cache. */
export function OfflineBar() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-bar" role="status" data-testid="offline-bar">
      <Trans>Offline: showing what you saw last. Money moves only online.</Trans>
    </div>
  );
}
