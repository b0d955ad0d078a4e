import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../../features/profile/profile-page';

// "[index]" keeps the literal /pages/profile/index path of docs/product.md#screens-and-routes (the profile
// tab).
export const Route = createFileRoute('/pages/profile/index')({ component: ProfilePage });
