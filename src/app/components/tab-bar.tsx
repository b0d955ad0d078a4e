import { Link, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { useSession } from '../lib/storage';
import './tab-bar.css';

const TabBadge = lazy(() => import('./tab-badge'));

// Bottom tab bar, 60 px, three tabs (docs/product.md#screens-and-routes).
export function TabBar() {
  const { t } = useLingui();
  const path = useRouterState({ select: (s) => s.location.pathname });
  // The profile tab carries a member's unread notice count (the inbox is reached from the profile).
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const tabs = [
    { to: '/', label: t`Home`, match: (p: string) => p === '/' || p.startsWith('/pages/index/index'), icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z' },
    { to: '/pages/project/index', label: t`Projects`, match: (p: string) => p.startsWith('/pages/project/index'), icon: 'M12 3c4 3 6 6 6 9a6 6 0 0 1-12 0c0-3 2-6 6-9zm0 6v12' },
    { to: '/pages/profile/index', label: t`Profile`, match: (p: string) => p.startsWith('/pages/profile/index'), icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0' },
  ] as const;
  return (
    <nav className="tabbar" aria-label={t`Main`}>
      {tabs.map((tab) => {
        const active = tab.match(path);
        const badge = member && tab.to === '/pages/profile/index';
        return (
          <Link key={tab.to} to={tab.to} aria-current={active ? 'page' : undefined}>
            <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
              <path d={tab.icon} fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {tab.label}
            {badge ? (
              <Suspense fallback={null}>
                <TabBadge />
              </Suspense>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
