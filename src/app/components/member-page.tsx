import type { ReactNode } from 'react';
import { Link, useLocation } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { NavBar } from './nav-bar';
import { OfflineBar } from './offline-bar';
import { useMemberId } from '../lib/user-info';
import './member-page.css';

/**
 * The frame of a members-only page: nav bar, offline bar, and the content for a signed-in member; anyone
 * else (guest, visitor) gets `prompt` and a log-in button that comes back here.
 */
export function MemberPage({ title, children, prompt, className = '' }: { title: ReactNode; children: ReactNode; prompt: ReactNode; className?: string }) {
  const memId = useMemberId();
  return (
    <div className={`page member-page ${className}`}>
      <NavBar title={title} />
      <OfflineBar />
      {memId > 0 ? children : <MemberPrompt>{prompt}</MemberPrompt>}
    </div>
  );
}

function MemberPrompt({ children }: { children: ReactNode }) {
  const location = useLocation();
  return (
    <div className="section">
      <div className="card member-prompt">
        <p>{children}</p>
        <Link to="/pages/login/index" search={{ redirect: location.href }} className="btn btn--block">
          <Trans>Log in</Trans>
        </Link>
      </div>
    </div>
  );
}
