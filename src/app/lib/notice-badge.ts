import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, NOTICES_UNREAD_KEY } from './db';
import { useOnline } from './online';
import { useSession } from './storage';
import { onInvalidation } from './sync';

// The unread notice count the tab bar badges. The tab bar is on the home screen, so this stays
// small: the count is read from Dexie (meta NOTICES_UNREAD_KEY); the refresh (lib/notices.ts) loads only
// for a signed-in member, on mount, when the connection returns and when `notifications` changed.

export function useUnreadNotices(): number {
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const online = useOnline();
  useEffect(() => {
    if (!member || !online) return;
    const refresh = () => void import('./notices').then((m) => m.refreshNotices(1));
    refresh();
    return onInvalidation((tables) => {
      if (tables.includes('notifications')) refresh();
    });
  }, [member, online]);
  const unread = useLiveQuery(async () => (await db.meta.get(NOTICES_UNREAD_KEY))?.value, []);
  return member && typeof unread === 'number' ? unread : 0;
}
