import { configureApi, get, signOut } from './lib/api';
import { getSession, saveBaseSettings, type BaseSettings, getBaseSettings } from './lib/storage';
import type { LiveSocket, SocketDeps } from './lib/socket';
import { applyInvalidation } from './lib/sync';
import { showToast } from './components/toast';
import { keepNotice } from './components/page-notice';
import { PATHS } from '../shared/api';
import { clearPrivateCache, db } from './lib/db';
import { reportDbError } from './lib/db-health';
import { wipeOnMemberChange } from './lib/session-cache';
import { clearSnapshots } from './lib/boot-snapshot';
import type { ServerMessage } from '../shared/socket-events';
import { noteServerTime } from './lib/server-time';
import { wireLang } from './lib/i18n';
import { noticeText } from '../shared/schemas/notice-text';
import { transportMessage } from '../shared/errors-transport';

const LOGIN_PATH = '/pages/login/index';

// Wiring of the app-wide services: the request layer's hooks, baseconfig at start, the live socket.

let timeoutListener: (() => void) | null = null;
export function onRequestTimeout(listener: () => void): void {
  timeoutListener = listener;
}

/** What the live socket's messages do: refresh the named tables, show a notification, note the server time. */
export function onServerMessage(message: ServerMessage): Promise<void> {
  if (message.type === 'invalidate') return applyInvalidation(message.tables, message.ids);
  if (message.type === 'notification') {
    // In the reader's language (a notice carries its English and Chinese text), kept on the screen it
    // lands on (it names what happened: "Order P… completed"); then the inbox and the badge refresh as
    // for an invalidation of `notifications` (lib/notices.ts).
    keepNotice(noticeText(message, wireLang()).title, 'info', { toastMs: 4000 });
    return applyInvalidation(['notifications'], undefined);
  }
  if (message.type === 'hello') noteServerTime(message.time);
  return Promise.resolve();
}

/** What the app asks of the live socket. */
export interface SocketHandle {
  sync(): void;
  close(): void;
}

/** The live socket, its code loaded only when a signed-in member first needs it: a visitor's screens
 *  (home among them, the JS budget's route) never load it. Calls made while it loads are kept as the one
 *  wish that matters, open or closed. */
function lazySocket(deps: SocketDeps): SocketHandle {
  let live: LiveSocket | null = null;
  let loading: Promise<void> | null = null;
  let wanted = false;
  const load = () =>
    (loading ??= import('./lib/socket').then(
      (m) => {
        live = new m.LiveSocket(deps);
      },
      () => {
        loading = null; // offline before the chunk was cached: the next sync tries again
      },
    ));
  return {
    sync() {
      if (live) return live.sync();
      const { memId, token } = deps.session();
      if (memId <= 0 || !token) return;
      wanted = true;
      void load().then(() => {
        if (wanted) live?.sync();
      });
    },
    close() {
      wanted = false;
      live?.close();
    },
  };
}

export function setupRuntime(navigateToLogin: () => void): SocketHandle {
  configureApi({
    toast: showToast,
    onSignedOut: (hadSession) => {
      void clearPrivateCache();
      clearSnapshots();
      // A member thrown out (the session expired, a password changed elsewhere) is told why on the login
      // screen; a guest's refused read says nothing.
      if (hadSession) keepNotice(transportMessage('session_expired', wireLang()), 'info', { path: LOGIN_PATH });
      navigateToLogin();
    },
    onTimeout: () => timeoutListener?.(),
  });

  // baseconfig at app start (docs/product.md#api-conventions); code 0 stores it, a failure only logs.
  void get<BaseSettings>(PATHS.baseconfig, {}, { quiet: true }).then((res) => {
    if (res.code === 0 && res.data) {
      saveBaseSettings(res.data);
      noteServerTime(res.data.server_time_ms);
      socket.sync();
    } else console.warn('baseconfig failed', res.code, res.msg);
  });

  const socket = lazySocket({
    socketHost: () => getBaseSettings()?.socket_host ?? null,
    session: () => {
      const s = getSession();
      return { memId: s.login.mem_id, token: s.token };
    },
    onMessage: (message: ServerMessage) => void onServerMessage(message),
    // Closed with 4001 (logout elsewhere, password change or reset, lock, freeze): the same sign-out as
    // an API answer with code -1 (clear the session and the private cache, go to login).
    onSessionEnded: signOut,
  });

  // Hidden or exiting closes the socket; coming back opens it again (as a route change would).
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? socket.close() : socket.sync()));
  window.addEventListener('pagehide', () => socket.close());
  // Another user's data must not stay in the cache after a sign-out or a new sign-in; the socket follows
  // the session too.
  wipeOnMemberChange(db, () => socket.sync());
  // A cache write that failed for want of space (or an unusable database) is said in a banner
  // (components/storage-alert.tsx) rather than lost in the console; the screen keeps what it has.
  window.addEventListener('unhandledrejection', (event) => {
    if (reportDbError(event.reason)) event.preventDefault();
  });
  return socket;
}
