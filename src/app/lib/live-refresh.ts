import { useEffect, useRef } from 'react';
import { useOnline } from './online';
import { onInvalidation } from './sync';

// How screens keep server data fresh: load on open, again when the connection returns, and whenever the
// live socket says one of the tables the screen shows changed (an `invalidate` message).

/** Runs `load` now, when the connection returns, and when the socket says one of `tables` changed. */
export function useLiveRefresh(load: () => unknown, tables: readonly string[], enabled = true): void {
  const online = useOnline();
  const latest = useRef(load);
  latest.current = load;
  const key = tables.join(',');
  useEffect(() => {
    if (!enabled || !online) return;
    void latest.current();
    const watched = key.split(',');
    return onInvalidation((changed) => {
      if (changed.some((t) => watched.includes(t))) void latest.current();
    });
  }, [enabled, online, key]);
}

/** Calls `listener` when the socket says one of `tables` changed (online or not; no call on open). */
export function useInvalidation(tables: readonly string[], listener: () => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  const key = tables.join(',');
  useEffect(() => {
    const watched = key.split(',');
    return onInvalidation((changed) => {
      if (changed.some((t) => watched.includes(t))) latest.current();
    });
  }, [key]);
}
