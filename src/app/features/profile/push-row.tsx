import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { clearKeptError, keepNotice } from '../../components/page-notice';
import { disablePush, enablePush, pushState, PUSH_SUBSCRIBE_LIMIT_MS, type PushState } from '../../lib/push';

// The profile's switch for notifications on this device (docs/product.md#notifications). The browser
// asks its permission only when the member taps it; a browser that blocked notifications, or has no Web
// Push, says so on the row instead of offering a switch that cannot work. While it turns on the row says it
// waits for the browser; a browser whose push service never answers (a network that blocks it) gives up
// after the limit, and the row keeps saying why until the next tap.

const BELL = 'M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0';

export function PushRow() {
  const { t } = useLingui();
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    let live = true;
    void pushState().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);

  const on = state === 'on';
  const usable = state === 'on' || state === 'off';

  const toggle = async () => {
    if (busy || !usable) return;
    setBusy(true);
    setTimedOut(false);
    clearKeptError();
    try {
      if (on) {
        if (await disablePush()) showToast(t`Notifications are off on this device.`);
        else keepNotice(t`Notifications could not be changed. Please try again.`, 'error');
      } else {
        const res = await enablePush();
        if (res === 'denied') keepNotice(t`Notifications are blocked. Allow them for this site in the browser's settings.`, 'error');
        else if (res === 'timeout') setTimedOut(true);
        else if (res !== 'unsupported' && res.code === 0) showToast(t`Notifications are on for this device.`, 'success');
        else if (res !== 'unsupported' && res.msg) keepNotice(res.msg, 'error');
      }
    } catch {
      keepNotice(t`Notifications could not be changed. Please try again.`, 'error');
    } finally {
      setState(await pushState());
      setBusy(false);
    }
  };

  const hint = state === 'denied' ? t`Blocked in the browser's settings` : state === 'unsupported' ? t`Not available in this browser` : null;
  const seconds = PUSH_SUBSCRIBE_LIMIT_MS / 1000;
  return (
    <button type="button" role="switch" aria-checked={on} disabled={!usable || busy} className="menu__item push-row" onClick={() => void toggle()} data-testid="push-switch">
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" className="menu__icon">
        <path d={BELL} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="menu__text push-row__text">
        <Trans>Notifications on this device</Trans>
        {hint && <span className="push-row__hint">{hint}</span>}
        {busy && !on && (
          <span className="push-row__hint" data-testid="push-row-busy">
            <Trans>Waiting for the browser…</Trans>
          </span>
        )}
        {timedOut && !busy && (
          <span className="push-row__hint push-row__hint--error" data-testid="push-row-failed">
            <Trans>The browser's push service did not answer within {seconds} seconds. A network that blocks it (some office or school Wi-Fi) stops notifications: try again on another network.</Trans>
          </span>
        )}
      </span>
      {usable && <span className={on ? 'push-row__switch push-row__switch--on' : 'push-row__switch'} aria-hidden="true" />}
    </button>
  );
}
