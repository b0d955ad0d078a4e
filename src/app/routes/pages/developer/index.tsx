import { createFileRoute } from '@tanstack/react-router';
import { DeveloperPage } from '../../../features/developer/developer-page';

// The Developers screen (docs/product.md#integrators): API keys and the test mode's sandbox.
export const Route = createFileRoute('/pages/developer/')({ component: DeveloperPage });
