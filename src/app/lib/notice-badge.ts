import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, NOTICES_UNREAD_KEY } from './db';
import { useOnline } from './online';
import { useSession } from './storage';
import { onInvalidation } from './sync';

// The unread notice count the tab bar badges, and the app icon's badge (setAppBadge where the platform
// has one; cleared at zero, so reading the inbox clears it). The tab bar is on the home screen, so this
// stays small: the count is read from Dexie (meta NOTICES_UNREAD_KEY); the refresh (lib/notices.ts) loads
// only for a signed-in member, on mount, when the connection returns and when `notifications` changed.
// A member's device that has notifications on tells the server its subscription once per app start and
// sign-in (lib/push.ts resyncPush: a device signed in again, or one the server dropped when her sessions
// ended elsewhere).

/** The session this app run last told the server its subscription with ('': none yet): each sign-in is a
 *  new session, so it tells the server again. */
let pushResyncedFor = '';

function showAppBadge(unread: number): void {
  if (typeof navigator === 'undefined' || !('setAppBadge' in navigator)) return;
  (unread > 0 ? navigator.setAppBadge(unread) : navigator.clearAppBadge()).catch(() => undefined);
}

export function useUnreadNotices(): number {
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const token = member ? session.token : '';
  const online = useOnline();
  useEffect(() => {
    if (!member || !online) return;
    const refresh = () => void import('./notices').then((m) => m.refreshNotices(1));
    refresh();
    if (pushResyncedFor !== token) {
      pushResyncedFor = token;
      void import('./push').then((m) => m.resyncPush());
    }
    return onInvalidation((tables) => {
      if (tables.includes('notifications')) refresh();
    });
  }, [member, token, online]);
  const unread = useLiveQuery(async () => (await db.meta.get(NOTICES_UNREAD_KEY))?.value, []);
  useAppBadge(member, unread);
  return member && typeof unread === 'number' ? unread : 0;
}

/** Keeps the app icon's badge at the unread count (none for a visitor). Screens that show the count call it
 *  with theirs: the tab bar's pages and the inbox, where reading clears it. */
export function useAppBadge(member: boolean, unread: unknown): void {
  useEffect(() => {
    // Not while the count is still being read: that would clear the icon's badge for a moment.
    if (!member) showAppBadge(0);
    else if (typeof unread === 'number') showAppBadge(unread);
  }, [member, unread]);
}
