import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useSupportEmail } from '../lib/storage';

// A tappable way to reach support: a mailto: link to baseconfig's support address with the subject and
// message filled in, or About us (which names the address) while the app has not loaded it yet.

export function SupportLink({ subject, body, className, testId, children }: { subject: string; body?: string; className?: string; testId?: string; children: ReactNode }) {
  const email = useSupportEmail();
  if (!email) {
    return (
      <Link to="/pages/about/index" className={className} data-testid={testId}>
        {children}
      </Link>
    );
  }
  const query = `subject=${encodeURIComponent(subject)}${body ? `&body=${encodeURIComponent(body)}` : ''}`;
  return (
    <a href={`mailto:${email}?${query}`} className={className} data-testid={testId}>
      {children}
    </a>
  );
}

/** The support address itself, as a plain mailto: link ('' renders nothing). */
export function SupportAddress() {
  const email = useSupportEmail();
  return email ? <a href={`mailto:${email}`}>{email}</a> : null;
}
