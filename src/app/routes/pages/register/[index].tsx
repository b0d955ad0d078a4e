import { createFileRoute } from '@tanstack/react-router';
import { RegisterPage } from '../../../features/auth/register-page';

// "[index]" keeps the literal /pages/register/index path of docs/product.md#screens-and-routes.
// `?invite=CODE` pre-fills the invitation code. The router parses search values as JSON, so an all-digit
// code arrives as a number; it is read back as text.
export const Route = createFileRoute('/pages/register/index')({
  validateSearch: (search: Record<string, unknown>): { invite?: string } => {
    const raw = search.invite;
    const invite = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim().toUpperCase().slice(0, 140) : '';
    return invite ? { invite } : {};
  },
  component: function RegisterRoute() {
    const { invite } = Route.useSearch();
    return <RegisterPage invite={invite} />;
  },
});
