import { createFileRoute } from '@tanstack/react-router';
import { OrgPage } from '../../../features/org/org-page';

// The organisation screen (docs/product.md#organisations): context, members, invitations.
export const Route = createFileRoute('/pages/org/index')({ component: OrgPage });
