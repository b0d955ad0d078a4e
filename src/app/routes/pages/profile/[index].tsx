import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../../features/profile/profile-page';

// "[index]" keeps the literal /pages/profile/index path of SPEC section 2 (the profile tab).
export const Route = createFileRoute('/pages/profile/index')({ component: ProfilePage });
