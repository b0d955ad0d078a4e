import { Trans } from '@lingui/react/macro';
import { useRegisterSW } from 'virtual:pwa-register/react';

// Prompt mode: a new version waits until the user chooses to reload; nothing reloads on its own. The
// root mounts this lazily a moment after the first screen, so registering the worker and precaching
// never compete with it.
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({ immediate: true });
  if (!needRefresh) return null;
  return (
    <div className="update-bar" role="alert">
      <span style={{ flex: 1 }}>
        <Trans>A new version of Canopy is ready.</Trans>
      </span>
      <button type="button" className="btn" onClick={() => void updateServiceWorker(true)}>
        <Trans>Reload</Trans>
      </button>
      <button type="button" className="btn btn--ghost" style={{ color: '#fff', boxShadow: 'inset 0 0 0 1px #fff' }} onClick={() => setNeedRefresh(false)}>
        <Trans>Later</Trans>
      </button>
    </div>
  );
}
