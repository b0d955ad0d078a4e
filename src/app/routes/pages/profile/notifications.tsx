import { createFileRoute } from '@tanstack/react-router';
import { InboxPage } from '../../../features/inbox/inbox-page';

// The notifications inbox (docs/decisions/0008-inbox.md): every notice, newest first, readable offline.
// Its own chunk like every route (autoCodeSplitting).
export const Route = createFileRoute('/pages/profile/notifications')({ component: InboxPage });
