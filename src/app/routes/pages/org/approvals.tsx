import { createFileRoute } from '@tanstack/react-router';
import { ApprovalsPage } from '../../../features/org/approvals-page';

// The organisation's approval requests: waiting and decided, approve or decline.
export const Route = createFileRoute('/pages/org/approvals')({ component: ApprovalsPage });
