import { KEYS } from './storage';

// The start screen (/pages/index/start) greets a new install once (docs/decisions/0005-start.md). A "true first
// run" is an open of the root with nothing Canopy ever stored on this device: no start seen, no session,
// no language chosen, no base settings from an earlier run (so an install that predates the start screen
// is not sent there). public/boot-shell.js repeats this test to leave the home banner out of the boot shell.

export const START_SEEN_KEY = 'start_seen';
export const START_PATH = '/pages/index/start';

function has(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return true; // storage disabled: never trap the user on the start screen
  }
}

export function hasSeenStart(): boolean {
  return has(START_SEEN_KEY);
}

/** Remembered on this device; the start screen calls it as soon as it is shown. */
export function markStartSeen(): void {
  try {
    localStorage.setItem(START_SEEN_KEY, JSON.stringify(Date.now()));
  } catch {
    // storage full or disabled: the start screen may show again, nothing worse
  }
}

export function isFirstRun(): boolean {
  return ![START_SEEN_KEY, KEYS.isLogin, KEYS.token, KEYS.loginInfo, KEYS.language, KEYS.baseSettings].some(has);
}

/** Whether `pathname` is the home screen (the root, or its own path). */
export const isHome = (pathname: string): boolean => pathname === '/' || pathname === '/pages/index/index';

/** Where an open of `pathname` should land: the start screen on a true first run at the root, else itself. */
export function firstScreen(pathname: string): string {
  return pathname === '/' && isFirstRun() ? START_PATH : pathname;
}
