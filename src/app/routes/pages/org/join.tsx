import { createFileRoute } from '@tanstack/react-router';
import { JoinPage } from '../../../features/org/join-page';

interface JoinSearch {
  /** The invitation's token from the mailed link. */
  token: string;
}

function parseJoinSearch(search: Record<string, unknown>): JoinSearch {
  const token = search.token;
  return { token: typeof token === 'string' && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : '' };
}

// The invitation link's screen: join, then act for the organisation.
export const Route = createFileRoute('/pages/org/join')({
  validateSearch: parseJoinSearch,
  component: function JoinRoute() {
    const { token } = Route.useSearch();
    return <JoinPage token={token} />;
  },
});
