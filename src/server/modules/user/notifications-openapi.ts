import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { pageSchema } from '../../../shared/schemas/common';
import { noticeReadSchema } from '../../../shared/schemas/inbox';

// The notifications inbox's endpoints (notifications.ts), for ENDPOINTS in src/server/openapi.ts.
export const NOTICE_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.notifications, summary: 'Notifications, newest first, with the unread count', schema: pageSchema, auth: 'user', gives: '{list: NotificationItem[], total, page, page_size, unread}' },
  {
    method: 'post',
    path: PATHS.notificationsRead,
    summary: 'Mark one notice ({id}) or every notice ({all: true}) of the caller read; another user\'s id is notice_not_found',
    schema: noticeReadSchema,
    auth: 'user',
    gives: '{marked, unread}',
  },
];
