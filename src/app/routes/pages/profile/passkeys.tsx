import { createFileRoute } from '@tanstack/react-router';
import { PasskeysPage } from '../../../features/account/passkeys-page';

// Passkeys (docs/product.md#passkeys): the list with last use, add one, remove one.
export const Route = createFileRoute('/pages/profile/passkeys')({ component: PasskeysPage });
