import { useEffect, useState } from 'react';
import type { CanopyDb } from './db';
import { answer, readDevice } from './device-read';
import { NOTICES_SEEN_KEY, NOTICES_UNREAD_KEY } from './notice-keys';
import { storeLoading, useStoreQuery, writeStore } from './store';
import { useOnline } from './online';
import { useSession } from './storage';
import { onInvalidation } from './sync';
import type { NoticePage } from '../../shared/schemas/inbox';
import type { NotificationItem } from '../../shared/schemas/wallet';

// The unseen notice count the tab bar badges, and the app icon's badge (setAppBadge where the platform
// has one; cleared at zero): unread notices newer than the newest one the inbox has shown, so opening the
// inbox clears the badges while the inbox still marks each unread notice (docs/decisions/0046-phone-polish.md).
// The tab bar is on the home screen, so this stays small: the count is read from Dexie (meta
// NOTICES_UNREAD_KEY and NOTICES_SEEN_KEY, and the cached notices) once the store has loaded, and until
// then from the device without Dexie and from the refresh's answer (lib/store.ts); the refresh
// (lib/notices.ts) loads only for a signed-in member, on mount, when the connection returns and when
// `notifications` changed.
// A member's device that has notifications on tells the server its subscription once per app start and
// sign-in (lib/push.ts resyncPush: a device signed in again, or one the server dropped when her sessions
// ended elsewhere).

/** The session this app run last told the server its subscription with ('': none yet): each sign-in is a
 *  new session, so it tells the server again. */
let pushResyncedFor = '';
/** How long after the start a member's device tells the server its push subscription. */
const PUSH_RESYNC_DELAY_MS = 3000;

function showAppBadge(unread: number): void {
  if (typeof navigator === 'undefined' || !('setAppBadge' in navigator)) return;
  (unread > 0 ? navigator.setAppBadge(unread) : navigator.clearAppBadge()).catch(() => undefined);
}

/** What the count is made of: the server's unread count, the newest notice the inbox has shown, and the
 *  cached notices newer than it. */
export interface NoticeFacts {
  unread: unknown;
  seen: unknown;
  newer: NotificationItem[];
}

/** Unread notices the inbox has not shown yet: the server's unread count until the inbox is first opened on
 *  this device; undefined while nothing is known. */
export function unseenOf({ unread, seen, newer }: NoticeFacts): number | undefined {
  if (typeof unread !== 'number') return undefined;
  if (typeof seen !== 'number') return unread;
  return Math.min(unread, newer.filter((n) => n.id > seen && !n.read).length);
}

/** The facts as the store keeps them (the live query). */
export async function unseenNotices(db: CanopyDb): Promise<number | undefined> {
  const unread = (await db.meta.get(NOTICES_UNREAD_KEY))?.value;
  const seen = (await db.meta.get(NOTICES_SEEN_KEY))?.value;
  const newer = typeof seen === 'number' ? await db.notices.where('id').above(seen).toArray() : [];
  return unseenOf({ unread, seen, newer });
}

/** The same facts read from the device before the store loads (lib/device-read.ts). */
export const noticeFactsOnDevice = (): Promise<NoticeFacts | undefined> =>
  readDevice(['meta', 'notices'], async (tx) => {
    const meta = tx.objectStore('meta');
    const [unread, seen] = await Promise.all([answer(meta.get(NOTICES_UNREAD_KEY)), answer(meta.get(NOTICES_SEEN_KEY))]);
    const seenId = (seen as { value?: unknown } | undefined)?.value;
    const newer = typeof seenId === 'number' ? ((await answer(tx.objectStore('notices').getAll(IDBKeyRange.lowerBound(seenId, true)))) as NotificationItem[]) : [];
    return { unread: (unread as { value?: unknown } | undefined)?.value, seen: seenId, newer };
  });

/** The facts once a refresh answered, before the store has it: its unread count, and its notices over the
 *  device's (the answer says which are read now). */
export function withAnswer(device: NoticeFacts | undefined, page: NoticePage): NoticeFacts {
  const byId = new Map((device?.newer ?? []).map((n) => [n.id, n]));
  for (const n of page.list) byId.set(n.id, n);
  return { unread: page.unread, seen: device?.seen, newer: [...byId.values()] };
}

/** Marks every notice up to `newestId` seen: the inbox calls it with the newest notice it shows. */
export function markNoticesSeen(newestId: number): Promise<void> {
  return writeStore(async (db) => {
    const seen = (await db.meta.get(NOTICES_SEEN_KEY))?.value;
    if (typeof seen !== 'number' || newestId > seen) await db.meta.put({ key: NOTICES_SEEN_KEY, value: newestId });
  });
}

export function useUnreadNotices(): number {
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const token = member ? session.token : '';
  const online = useOnline();
  // Before the store loads (a start on home), the count comes from the device and the refresh's answer.
  const [device, setDevice] = useState<NoticeFacts | undefined>();
  const [answered, setAnswered] = useState<NoticePage | undefined>();
  useEffect(() => {
    if (!member || storeLoading()) return;
    let current = true;
    void noticeFactsOnDevice().then((facts) => current && setDevice(facts));
    return () => {
      current = false;
    };
  }, [member]);
  useEffect(() => {
    if (!member || !online) return;
    const refresh = () => void import('./notices').then((m) => m.refreshNotices(1, undefined, undefined, setAnswered));
    refresh();
    let resync: ReturnType<typeof setTimeout> | undefined;
    if (pushResyncedFor !== token) {
      pushResyncedFor = token;
      // Nothing on the first screen waits for it: its code loads once the start is over, so the home
      // screen's scripts stay within their budget (docs/decisions/0045-home-budget.md).
      resync = setTimeout(() => {
        resync = undefined;
        void import('./push').then((m) => m.resyncPush());
      }, PUSH_RESYNC_DELAY_MS);
    }
    const stop = onInvalidation((tables) => {
      if (tables.includes('notifications')) refresh();
    });
    return () => {
      // A run cut short (signed out, offline) tells the server on its next start instead.
      if (resync !== undefined) {
        clearTimeout(resync);
        pushResyncedFor = '';
      }
      stop();
    };
  }, [member, token, online]);
  const unseen = useStoreQuery(unseenNotices, [], unseenOf(answered ? withAnswer(device, answered) : (device ?? { unread: undefined, seen: undefined, newer: [] })));
  useAppBadge(member, unseen);
  return member && typeof unseen === 'number' ? unseen : 0;
}

/** Keeps the app icon's badge at the unseen count (none for a visitor). Screens that show the count call it
 *  with theirs: the tab bar's pages, and the inbox with 0 once it shows its notices. */
export function useAppBadge(member: boolean, unread: unknown): void {
  useEffect(() => {
    // Not while the count is still being read: that would clear the icon's badge for a moment.
    if (!member) showAppBadge(0);
    else if (typeof unread === 'number') showAppBadge(unread);
  }, [member, unread]);
}
