import { useCallback, useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { post } from '../../lib/api';
import { db } from '../../lib/db';
import { NOTICES_UNREAD_KEY } from '../../lib/notice-keys';
import { useIntentKey } from '../../lib/intent-key';
import { useLiveRefresh } from '../../lib/live-refresh';
import { markNoticesSeen, useAppBadge } from '../../lib/notice-badge';
import { NOTICE_TABLES, refreshNotices } from '../../lib/notices';
import { useOnline } from '../../lib/online';
import { useMemberId } from '../../lib/user-info';
import { PATHS } from '../../../shared/api';
import { PAGE_SIZE } from '../../../shared/constants';
import type { NoticeReadResult } from '../../../shared/schemas/inbox';
import type { NotificationItem } from '../../../shared/schemas/wallet';

// The inbox's reads and writes. Notices are read from Dexie (lib/notices.ts fills it), so the list shows
// offline; the next page is fetched as the end of the list comes near. Marking read updates the cache at
// once and then the server (POST user/notifications/read with the intent's Idempotency-Key); a refusal or a
// failure puts the cache back from the server.

export interface InboxState {
  notices: NotificationItem[] | undefined; // undefined while Dexie answers
  unread: number;
  hasMore: boolean;
  loading: boolean;
  online: boolean;
  loadMore: () => void;
}

export function useInbox(): InboxState {
  const member = useMemberId() > 0;
  const online = useOnline();
  const [shown, setShown] = useState(PAGE_SIZE);
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const notices = useLiveQuery(() => db.notices.reverse().limit(shown).toArray(), [shown]);
  const unread = useLiveQuery(async () => (await db.meta.get(NOTICES_UNREAD_KEY))?.value, []);
  // What the inbox shows is seen: the badges clear, the unread marks stay until read.
  const newest = notices?.[0]?.id;
  useEffect(() => {
    if (member && newest !== undefined) void markNoticesSeen(newest);
  }, [member, newest]);
  useAppBadge(member, notices === undefined ? undefined : 0);
  useLiveRefresh(
    async () => {
      const page = await refreshNotices(1);
      if (page) setTotal(page.total);
    },
    NOTICE_TABLES,
    member,
  );
  const loadMore = useCallback(() => {
    if (loading) return;
    const next = Math.floor(shown / PAGE_SIZE) + 1;
    setLoading(true);
    void refreshNotices(next)
      .then((page) => {
        if (page) setTotal(page.total);
        setShown((n) => n + PAGE_SIZE);
      })
      .finally(() => setLoading(false));
  }, [loading, shown]);
  const count = notices?.length ?? 0;
  return {
    notices,
    unread: typeof unread === 'number' ? unread : 0,
    // Offline, the cache is all there is; online, the server's total says whether more pages exist.
    hasMore: online && total !== null && count >= shown && total > count,
    loading,
    online,
    loadMore,
  };
}

/** Mark one notice (`id`) or all (`'all'`) read. Resolves with the refusal's message, '' on success. */
export function useMarkRead(): (target: number | 'all') => Promise<string> {
  const { keyFor, settle } = useIntentKey();
  return useCallback(
    async (target) => {
      const payload = target === 'all' ? { all: true } : { id: target };
      const before = await db.transaction('rw', db.notices, db.meta, async () => {
        const rows = target === 'all' ? await db.notices.filter((n) => !n.read).toArray() : [await db.notices.get(target)].filter((n): n is NotificationItem => !!n && !n.read);
        await db.notices.bulkPut(rows.map((n) => ({ ...n, read: true })));
        const unread = (await db.meta.get(NOTICES_UNREAD_KEY))?.value;
        if (typeof unread === 'number') await db.meta.put({ key: NOTICES_UNREAD_KEY, value: target === 'all' ? 0 : Math.max(0, unread - rows.length) });
        return rows.length;
      });
      if (target !== 'all' && before === 0) return '';
      const res = await post<NoticeReadResult>(PATHS.notificationsRead, payload, { idempotencyKey: keyFor(payload), quiet: true });
      settle(res.code);
      if (res.code === 0 && res.data) {
        await db.meta.put({ key: NOTICES_UNREAD_KEY, value: res.data.unread });
        return '';
      }
      await refreshNotices(1);
      return res.msg;
    },
    [keyFor, settle],
  );
}
