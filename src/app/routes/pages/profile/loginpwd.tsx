import { createFileRoute } from '@tanstack/react-router';
import { LoginPasswordPage } from '../../../features/account/login-password-page';

// Login password (SPEC section 2): change it (old, new, repeat).
export const Route = createFileRoute('/pages/profile/loginpwd')({ component: LoginPasswordPage });
