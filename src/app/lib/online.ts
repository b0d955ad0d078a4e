import { useSyncExternalStore } from 'react';

// navigator.onLine says false only when there is surely no network; a request that fails to reach the
// server also marks the app offline until one succeeds, which catches "Wi-Fi on, server unreachable".
// Only answers that came over the network count: one the service worker took from its cache says nothing
// about the server (lib/api.ts leaves those out), so the bar stays truthful while reads succeed offline.
let reachable = true;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function noteReachable(ok: boolean): void {
  if (ok !== reachable) {
    reachable = ok;
    emit();
  }
}

function snapshot(): boolean {
  return (typeof navigator === 'undefined' || navigator.onLine) && reachable;
}

function subscribe(l: () => void) {
  listeners.add(l);
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  return () => {
    listeners.delete(l);
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => true);
}

export function isOnlineNow(): boolean {
  return snapshot();
}

/** Resolves when the server is (believed) reachable: at once, or at the next network answer or probe that
 *  reaches it. */
export function whenReachable(): Promise<void> {
  if (snapshot()) return Promise.resolve();
  const events = typeof window === 'undefined' ? null : window;
  return new Promise((resolve) => {
    const check = () => {
      if (!snapshot()) return;
      listeners.delete(check);
      events?.removeEventListener('online', check);
      resolve();
    };
    listeners.add(check);
    events?.addEventListener('online', check);
  });
}

/** How long to wait before asking the server again while it is unreachable: 1 s, doubling, at most 15 s. */
export const PROBE_FIRST_MS = 1000;
export const PROBE_MAX_MS = 15_000;

/**
 * While the server is unreachable, asks it again now and then (`probe` makes one uncached request, whose
 * outcome reaches noteReachable like any other), and at once when the device says it is back online or
 * the app comes back to the foreground. Without it, an app whose reads are all answered from the cache
 * would never learn that the server is back. Returns a stop function.
 */
export function watchReachability(probe: () => Promise<unknown>): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let delay = PROBE_FIRST_MS;
  let running = false;

  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const schedule = () => {
    clear();
    if (reachable) {
      delay = PROBE_FIRST_MS;
      return;
    }
    timer = setTimeout(run, delay);
    delay = Math.min(delay * 2, PROBE_MAX_MS);
  };
  const run = () => {
    timer = null;
    if (reachable || running) return;
    running = true;
    void probe()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        schedule();
      });
  };
  const now = () => {
    if (reachable || (typeof navigator !== 'undefined' && !navigator.onLine)) return;
    delay = PROBE_FIRST_MS;
    clear();
    run();
  };
  const onVisible = () => document.visibilityState === 'visible' && now();

  listeners.add(schedule);
  window.addEventListener('online', now);
  document.addEventListener('visibilitychange', onVisible);
  schedule();
  return () => {
    clear();
    listeners.delete(schedule);
    window.removeEventListener('online', now);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
