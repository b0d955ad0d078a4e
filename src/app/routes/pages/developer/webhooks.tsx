import { createFileRoute } from '@tanstack/react-router';
import { WebhooksPage } from '../../../features/webhooks/webhooks-page';

// Webhooks (docs/product.md#webhooks): endpoints, their secrets (shown once), pings and the delivery log.
export const Route = createFileRoute('/pages/developer/webhooks')({ component: WebhooksPage });
