import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import './account.css';

/** An account settings page: members only; everyone else is asked to log in. */
export function AccountPage({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <MemberPage title={title} className="account-page" prompt={<Trans>Log in with your account to change your account settings.</Trans>}>
      {children}
    </MemberPage>
  );
}
