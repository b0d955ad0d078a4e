import * as v from 'valibot';
import { idSchema, int, paged } from './common';
import { notificationItemSchema } from './wallet';

// The notifications inbox. Notices are stored with their English and Chinese text
// (docs/decisions/0008-inbox.md); the reader's language picks one of the two, in the inbox and in toasts.

/** POST user/notifications/read: one notice ({id}) or every notice ({all: true}) of the caller. */
export const noticeReadSchema = v.pipe(
  v.object({
    id: v.optional(idSchema),
    all: v.optional(v.pipe(v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])], 'invalid_request'), v.transform((x) => x === true || x === 'true' || x === '1'))),
  }),
  v.check((x) => (x.id !== undefined) !== (x.all === true), 'invalid_request'),
);


/** GET user/notifications: a page of notices, newest first, with the caller's unread count. */
export const noticePageSchema = paged(notificationItemSchema, { unread: int() });
export type NoticePage = v.InferOutput<typeof noticePageSchema>;

/** The answer of a mark-read: how many notices this write marked (0 on a repeat) and what stays unread. */
export const noticeReadResultSchema = v.strictObject({ marked: int(), unread: int() });
export type NoticeReadResult = v.InferOutput<typeof noticeReadResultSchema>;

export { noticeText } from './notice-text';
