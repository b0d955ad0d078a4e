import { createFileRoute } from '@tanstack/react-router';
import { ActivityPage } from '../../../features/org/activity-page';

// The organisation's activity log (owner and admins), with its CSV export.
export const Route = createFileRoute('/pages/org/activity')({ component: ActivityPage });
