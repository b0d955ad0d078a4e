import { createFileRoute } from '@tanstack/react-router';
import { AvatarPage } from '../../../features/account/avatar-page';

// Profile photo (docs/product.md#screens-and-routes, /pages/profile/cropper): take or pick a picture, crop,
// rotate, upload. Split into its own chunk like every route (autoCodeSplitting), so react-easy-crop loads
// only here.
export const Route = createFileRoute('/pages/profile/cropper')({ component: AvatarPage });
