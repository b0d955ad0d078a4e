import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { pageSchema } from '../../../shared/schemas/common';
import { noticePageSchema, noticeReadResultSchema, noticeReadSchema } from '../../../shared/schemas/inbox';

// The notifications inbox's endpoints (notifications.ts), for ENDPOINTS in src/server/openapi.ts.
export const NOTICE_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.notifications,
    operationId: 'userNotifications',
    tag: 'Notifications',
    summary: 'Notifications, newest first, with the unread count',
    schema: pageSchema,
    auth: 'user',
    answer: noticePageSchema,
    gives: '{list: NotificationItem[], total, page, page_size, unread}',
  },
  {
    method: 'post',
    path: PATHS.notificationsRead,
    operationId: 'userNotificationsRead',
    tag: 'Notifications',
    summary: "Mark one notice ({id}) or every notice ({all: true}) of the caller read; another user's id is notice_not_found",
    schema: noticeReadSchema,
    auth: 'user',
    idempotent: true,
    answer: noticeReadResultSchema,
    errors: ['notice_not_found'],
    gives: '{marked, unread}',
  },
];
