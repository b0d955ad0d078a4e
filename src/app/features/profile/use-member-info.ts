import { useEffect, useState } from 'react';
import { refreshUserInfo, useCachedUserInfo } from '../../lib/user-info';
import { onInvalidation } from '../../lib/sync';

/** The member's info for the profile tab: the copy kept on the device at once (so the tab shows offline),
 *  refreshed from the API on open and whenever the socket says the user's money or orders changed. */
export function useMemberInfo(member: boolean, memId: number) {
  const [loadError, setLoadError] = useState('');
  // undefined while Dexie answers, null when nothing of this member is cached yet.
  const cached = useCachedUserInfo(memId);

  useEffect(() => {
    if (!member) return;
    const load = () => void refreshUserInfo().then((r) => setLoadError(r.ok ? '' : r.msg));
    load();
    return onInvalidation((tables) => {
      if (tables.includes('user') || tables.includes('fundlogs') || tables.includes('orders')) load();
    });
  }, [member, memId]);

  return { entry: cached ?? undefined, loading: cached === undefined, loadError };
}
