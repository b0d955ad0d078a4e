// The inbox's entries in the store's meta table (lib/db.ts), apart from it: the tab bar's badge reads them on
// home before the store's code loads (lib/notice-badge.ts, lib/store.ts).

/** The signed-in member's unread notice count (a number), from GET user/notifications. */
export const NOTICES_UNREAD_KEY = 'notices_unread';
/** The id of the newest notice the inbox has shown on this device (a number): the badges count only
 *  unread notices newer than it (docs/decisions/0046-phone-polish.md). */
export const NOTICES_SEEN_KEY = 'notices_seen';
