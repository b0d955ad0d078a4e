import { createFileRoute } from '@tanstack/react-router';
import { LoginPasswordPage } from '../../../features/account/login-password-page';

// Login password (docs/product.md#screens-and-routes): change it (old, new, repeat).
export const Route = createFileRoute('/pages/profile/loginpwd')({ component: LoginPasswordPage });
