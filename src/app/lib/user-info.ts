import { get } from './api';
import { useStoreQuery, writeStore } from './store';
import { useLiveRefresh } from './live-refresh';
import { useSession } from './storage';
import { PATHS } from '../../shared/api';
import type { UserInfo } from '../../shared/schemas/user';

// The signed-in member's info (profile, grade, balances, locks), kept in Dexie meta under USER_INFO_KEY so
// every screen that shows it reads it offline; refreshed from GET user/info. Read and written through
// lib/store.ts, so the screens that show it can draw before the store's code has loaded.

/** The store's meta entry of the member's info. */
export const USER_INFO_KEY = 'user_info';

export interface CachedUserInfo {
  info: UserInfo;
  saved_at: number;
}

/** GET user/info into the cache. */
export async function refreshUserInfo(): Promise<{ ok: boolean; msg: string }> {
  const res = await get<UserInfo>(PATHS.userInfo, {}, { quiet: true });
  if (res.code === 0 && res.data) {
    const value = { info: res.data, saved_at: Date.now() } satisfies CachedUserInfo;
    await writeStore((db) => db.meta.put({ key: USER_INFO_KEY, value }));
    return { ok: true, msg: '' };
  }
  return { ok: false, msg: res.msg };
}

/** The signed-in member's id, 0 for guests and visitors. */
export function useMemberId(): number {
  const session = useSession();
  return session.isLogin ? session.login.mem_id : 0;
}

/** The cached user info entry of this member: undefined while Dexie answers, null when none is cached. */
export function useCachedUserInfo(memId: number): CachedUserInfo | null | undefined {
  // Through lib/store.ts: a project's detail draws before the store's code loads (lib/project.ts).
  const entry = useStoreQuery(async (db) => ((await db.meta.get(USER_INFO_KEY))?.value as CachedUserInfo | undefined) ?? null, [], undefined);
  // Never show another account's copy (the device may have switched users).
  return entry === undefined ? undefined : entry && entry.info.mem_id === memId ? entry : null;
}

/**
 * The member's info from the cache, refreshed on open, when back online and when the socket says the user,
 * their fund logs or orders changed. `info` is undefined while the cache answers, null when nothing is known.
 */
export function useUserInfo(): { info: UserInfo | null | undefined; member: boolean; loading: boolean } {
  const memId = useMemberId();
  const member = memId > 0;
  const entry = useCachedUserInfo(memId);
  useLiveRefresh(refreshUserInfo, ['user', 'fundlogs', 'orders'], member);
  return { info: entry === undefined ? undefined : (entry?.info ?? null), member, loading: entry === undefined };
}
