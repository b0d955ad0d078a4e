import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useUnreadNotices } from '../../lib/notice-badge';
import { PushRow } from './push-row';

// The profile tab's menus: the member's account and money screens, and help and settings for everyone.

export function MemberMenus() {
  const { t } = useLingui();
  // The same count as the profile tab's badge, on the row it leads to.
  const unread = useUnreadNotices();
  return (
    <>
      <nav className="menu card" aria-label={t`Account`}>
        <MenuItem
          to="/pages/profile/notifications"
          icon="info"
          count={
            unread > 0 && (
              <span className="menu__count" data-testid="notifications-unread">
                <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
                <span className="sr-only">{t`${unread} unread`}</span>
              </span>
            )
          }
        >
          <Trans>Notifications</Trans>
        </MenuItem>
        <PushRow />
        <MenuItem to="/pages/org/index" icon="team">
          <Trans>Organisation</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/profile" icon="user">
          <Trans>Personal information</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/withdpwd" icon="lock">
          <Trans>Payment password</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/loginpwd" icon="lock">
          <Trans>Login password</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/passkeys" icon="key">
          <Trans>Passkeys</Trans>
        </MenuItem>
        <MenuItem to="/pages/developer" icon="key">
          <Trans>Developers</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/card" icon="card">
          <Trans>Bank card / PayNow</Trans>
        </MenuItem>
        <MenuItem to="/pages/developer/webhooks" icon="link">
          <Trans>Webhooks</Trans>
        </MenuItem>
      </nav>
      <nav className="menu card" aria-label={t`Money and credits`}>
        <MenuItem to="/pages/profile/topup" icon="plus">
          <Trans>Top up</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/withdraw" icon="out">
          <Trans>Withdraw</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/apply" icon="list">
          <Trans>Withdrawal records</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/fundlogs" icon="list">
          <Trans>Fund logs</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/order" icon="bag">
          <Trans>Orders</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/tons" icon="leaf">
          <Trans>Carbon credits</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/offsets" icon="leaf">
          <Trans>Monthly offsets</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/membership" icon="star">
          <Trans>Membership</Trans>
        </MenuItem>
        <MenuItem to="/pages/profile/carbontax" icon="leaf">
          <Trans>Singapore carbon tax</Trans>
        </MenuItem>
      </nav>
    </>
  );
}

export function PublicMenu() {
  const { t } = useLingui();
  return (
    <nav className="menu card" aria-label={t`Help and settings`}>
      <MenuItem to="/pages/index/faq" icon="help">
        <Trans>FAQ</Trans>
      </MenuItem>
      <MenuItem to="/pages/about/index" icon="info">
        <Trans>About us</Trans>
      </MenuItem>
      <MenuItem to="/pages/profile/setting" icon="gear">
        <Trans>Settings</Trans>
      </MenuItem>
    </nav>
  );
}

const icons = {
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0',
  team: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm-7 9a7 7 0 0 1 14 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 13.5a7 7 0 0 1 4 6.5',
  lock: 'M6 11h12v10H6zM8 11V8a4 4 0 0 1 8 0v3',
  key: 'M8 15a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM12 11h9M18 11v3M21 11v2',
  card: 'M3 6h18v12H3zM3 10h18M7 15h4',
  plus: 'M12 5v14M5 12h14',
  out: 'M12 19V5M6 11l6-6 6 6',
  list: 'M8 6h13M8 12h13M8 18h13M3.5 6h.01M3.5 12h.01M3.5 18h.01',
  bag: 'M5 8h14l-1 13H6zM9 8V6a3 3 0 0 1 6 0v2',
  leaf: 'M5 19c0-8 6-14 15-14 0 9-6 15-14 15M5 19l7-7',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  help: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5h.01M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  info: 'M12 11v6M12 7.5h.01M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  gear: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
} as const;

function Icon({ name }: { name: keyof typeof icons }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" className="menu__icon">
      <path d={icons[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function GearIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
      <path d={icons.gear} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

const chevron = (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className="menu__chevron">
    <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** A menu row: a router Link, so a tap is a client-side navigation, never a reload of the app. */
function MenuItem({ to, icon, count, children }: { to: LinkProps['to']; icon: keyof typeof icons; count?: ReactNode; children: ReactNode }) {
  return (
    <Link to={to} className="menu__item">
      <Icon name={icon} />
      <span className="menu__text">{children}</span>
      {count}
      {chevron}
    </Link>
  );
}
