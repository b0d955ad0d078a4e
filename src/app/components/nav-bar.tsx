import type { ReactNode } from 'react';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { PageNotice } from './page-notice';

// The custom navigation bar on every page (docs/product.md#screens-and-routes), with the screen's kept
// notice right under it (components/page-notice.tsx).
export function NavBar({ title, back = true, left, right, brand = false }: { title: ReactNode; back?: boolean; left?: ReactNode; right?: ReactNode; brand?: boolean }) {
  const router = useRouter();
  const { t } = useLingui();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // Back within the app; a screen that opened this visit (a shared certificate, a link from a mail) has
  // nothing of the app behind it, so its back arrow leads home instead of out of the app.
  const goBack = () => {
    if (router.history.canGoBack()) router.history.back();
    else void router.navigate({ to: '/' });
  };
  return (
    <>
      <header className={brand ? 'navbar navbar--brand' : 'navbar'}>
        {back ? (
          <button type="button" className="navbar__btn" onClick={goBack} aria-label={t`Back`}>
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        ) : (
          <div>{left}</div>
        )}
        <h1 className="navbar__title">{title}</h1>
        <div>{right}</div>
      </header>
      <PageNotice pathname={pathname} />
    </>
  );
}
