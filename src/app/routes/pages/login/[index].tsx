import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../../../features/auth/login-page';

interface LoginSearch {
  /** Where to go after logging in: an in-app path only, never another origin. */
  redirect?: string;
}

function parseLoginSearch(search: Record<string, unknown>): LoginSearch {
  const redirect = search.redirect;
  if (typeof redirect !== 'string' || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return {};
  if (redirect.startsWith('/pages/login') || redirect.startsWith('/pages/register')) return {};
  return { redirect };
}

// "[index]" keeps the literal /pages/login/index path of docs/product.md#screens-and-routes.
export const Route = createFileRoute('/pages/login/index')({
  validateSearch: parseLoginSearch,
  component: function LoginRoute() {
    const { redirect } = Route.useSearch();
    return <LoginPage redirect={redirect} />;
  },
});
