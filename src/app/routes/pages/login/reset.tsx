import { createFileRoute } from '@tanstack/react-router';
import { ResetPage } from '../../../features/auth/reset-page';

// Forgot / reset password; `email` pre-fills the form when coming from the login page.
export const Route = createFileRoute('/pages/login/reset')({
  validateSearch: (search: Record<string, unknown>): { email?: string } =>
    typeof search.email === 'string' && search.email.length <= 140 ? { email: search.email } : {},
  component: function ResetRoute() {
    const { email } = Route.useSearch();
    return <ResetPage email={email} />;
  },
});
