import { useSyncExternalStore } from 'react';

// navigator.onLine says false only when there is surely no network; a request that fails to reach the
// server also marks the app offline until one succeeds, which catches "Wi-Fi on, server unreachable".
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
