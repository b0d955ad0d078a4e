import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useRouter, type LinkProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import { showToast } from '../../components/toast';
import { post } from '../../lib/api';
import { clearPrivateCache } from '../../lib/db';
import { refreshUserInfo, useCachedUserInfo, type CachedUserInfo } from '../../lib/user-info';
import { onInvalidation } from '../../lib/sync';
import { clearSession, useSession } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { formatDate, formatDateTime, formatSgd, formatTons } from '../../lib/format';
import { canShare, copyText, shareLink } from '../../lib/clipboard';
import { PATHS } from '../../../shared/api';
import './profile.css';

// The profile tab. The last user info is kept in Dexie (lib/user-info.ts) so the tab shows it offline; the
// API refreshes it on open and whenever the socket says the user's data changed.

/** Log out: the server revokes the token, then the device forgets the session and goes to the login page. */
export function useLogout() {
  const router = useRouter();
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const logout = useCallback(async () => {
    setBusy(true);
    try {
      const res = await post(PATHS.logout, {});
      // Only a transport failure keeps the session (the request layer already said "Network error");
      // any answer from the server means the token is gone or no longer good.
      if (res.code > 0 && res.code < 1000) return;
      clearSession();
      await clearPrivateCache(); // every user table, not only what this screen shows
      showToast(t`You have logged out.`, 'success');
      void router.navigate({ to: '/pages/login/index', replace: true });
    } finally {
      setBusy(false);
    }
  }, [router, t]);
  return { logout, busy };
}

export function ProfilePage() {
  const { t } = useLingui();
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const memId = session.login.mem_id;
  const [loadError, setLoadError] = useState('');

  // undefined while Dexie answers, null when nothing of this member is cached yet.
  const cached = useCachedUserInfo(memId);
  const mine = cached ?? undefined;

  useEffect(() => {
    if (!member) return;
    const load = () =>
      void refreshUserInfo().then((r) => setLoadError(r.ok ? '' : r.msg));
    load();
    return onInvalidation((tables) => {
      if (tables.includes('user') || tables.includes('fundlogs') || tables.includes('orders')) load();
    });
  }, [member, memId]);

  return (
    <div className="page page--tabbed profile-page">
      <NavBar
        title={t`Profile`}
        back={false}
        right={
          <Link to="/pages/profile/setting" className="navbar__btn" aria-label={t`Settings`}>
            <GearIcon />
          </Link>
        }
      />
      <OfflineBar />
      {member ? (
        <MemberProfile entry={mine} loading={cached === undefined} loadError={loadError} fallbackName={session.login.realname || session.login.account} />
      ) : (
        <GuestProfile visitor={Boolean(session.token)} />
      )}
      <TabBar />
    </div>
  );
}

const creditLabels = {
  excellent: <Trans>Excellent</Trans>,
  medium: <Trans>Medium</Trans>,
  poor: <Trans>Poor</Trans>,
} as const;

function MemberProfile({ entry, loading, loadError, fallbackName }: { entry?: CachedUserInfo; loading: boolean; loadError: string; fallbackName: string }) {
  const { t } = useLingui();
  const online = useOnline();
  const { logout, busy } = useLogout();
  const info = entry?.info;
  const name = info ? info.realname || info.email : fallbackName;
  const wallet = info?.wallet;

  return (
    <>
      <section className="profile-head" aria-label={t`Your account`}>
        <Link to="/pages/profile/cropper" className="profile-head__avatar" aria-label={t`Change profile photo`} data-testid="profile-avatar-link"><Avatar name={name} src={info?.avatar} /></Link>
        <div className="profile-head__who">
          <h2 className={info && !info.realname ? 'profile-head__name profile-head__name--email' : 'profile-head__name'}>
            {info && !info.realname ? <Email address={info.email} /> : name || '—'}
          </h2>
          {info && info.realname && (
            <p className="profile-head__email">
              <Email address={info.email} />
            </p>
          )}
          {info && (
            <div className="profile-head__badges">
              <span className="badge badge--grade" title={t`Membership grade`}>
                P{info.grade}
              </span>
              <span className={`badge badge--credit badge--${info.credit_score}`}>
                <Trans>Credit: {creditLabels[info.credit_score]}</Trans>
              </span>
              {info.type === 'corporate' && (
                <span className="badge">
                  <Trans>Corporate</Trans>
                </span>
              )}
            </div>
          )}
        </div>
      </section>

      <div className="section profile-body profile-body--raised">
        {info?.risk && (
          <p className="notice notice--danger profile-notice" role="status">
            <Trans>This account is under risk control: ordering and withdrawals are paused. Please contact support.</Trans>
          </p>
        )}
        {info?.locked && (
          <p className="notice notice--warn profile-notice" role="status">
            <Trans>Withdrawals are locked and your balance is frozen after repeated wrong withdrawal passwords. Please contact the administrator.</Trans>
          </p>
        )}
        {!info && !loading && (
          <p className="notice profile-notice" role="status">
            {loadError || <Trans>Loading your account…</Trans>}
          </p>
        )}

        <section className="wallet card" aria-labelledby="wallet-title">
          <div className="wallet__top">
            <div>
              <h2 className="wallet__label" id="wallet-title">
                <Trans>Available balance</Trans>
              </h2>
              <p className="wallet__available" data-testid="wallet-available">
                {wallet ? formatSgd(wallet.available) : '—'}
              </p>
            </div>
            <span className="wallet__currency">SGD</span>
          </div>
          <dl className="wallet__grid">
            <div>
              <dt>
                <Trans>Frozen</Trans>
              </dt>
              <dd>{wallet ? formatSgd(wallet.frozen) : '—'}</dd>
            </div>
            <div>
              <dt>
                <Trans>Carbon credits</Trans>
              </dt>
              <dd>{wallet ? formatTons(wallet.credits) : '—'}</dd>
            </div>
            <div>
              <dt>
                <Trans>Pre-sale</Trans>
              </dt>
              <dd>{wallet ? formatSgd(wallet.presale) : '—'}</dd>
            </div>
            <div>
              <dt>
                <Trans>Unavailable</Trans>
              </dt>
              <dd>{wallet ? formatSgd(wallet.unavailable) : '—'}</dd>
            </div>
          </dl>
          <div className="wallet__actions">
            <Link className="btn" to="/pages/profile/topup">
              <Trans>Top up</Trans>
            </Link>
            <Link className="btn btn--ghost" to="/pages/profile/withdraw">
              <Trans>Withdraw</Trans>
            </Link>
          </div>
          {entry && !online && (
            <p className="wallet__stamp">
              <Trans>As of {formatDateTime(entry.saved_at)}</Trans>
            </p>
          )}
        </section>

        {info && info.invite_code && <InviteCard code={info.invite_code} joinedAt={info.joined_at} />}

        <nav className="menu card" aria-label={t`Account`}>
          <MenuItem to="/pages/profile/notifications" icon="info"><Trans>Notifications</Trans></MenuItem>
          <MenuItem to="/pages/profile/profile" icon="user">
            <Trans>Personal information</Trans>
          </MenuItem>
          <MenuItem to="/pages/profile/withdpwd" icon="lock">
            <Trans>Withdrawal password</Trans>
          </MenuItem>
          <MenuItem to="/pages/profile/loginpwd" icon="lock">
            <Trans>Login password</Trans>
          </MenuItem>
          <MenuItem to="/pages/profile/card" icon="card">
            <Trans>Bank card / PayNow</Trans>
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
          <MenuItem to="/pages/profile/membership" icon="star">
            <Trans>Membership</Trans>
          </MenuItem>
        </nav>
        <PublicMenu />

        <button type="button" className="btn btn--ghost btn--block profile-logout" data-testid="logout" onClick={() => void logout()} disabled={!online || busy}>
          {!online ? <Trans>Needs a connection</Trans> : busy ? <Trans>Logging out…</Trans> : <Trans>Log out</Trans>}
        </button>
      </div>
    </>
  );
}

/** The member's invitation code (copy, or share the register link that pre-fills it) and join date. */
function InviteCard({ code, joinedAt }: { code: string; joinedAt: number }) {
  const { t } = useLingui();
  const link = `${location.origin}/pages/register/index?invite=${encodeURIComponent(code)}`;
  const share = { title: t`Join me on Canopy`, text: t`Buy verified carbon credits by the ton on Canopy. My invitation code: ${code}`, url: link };
  const copy = async (text: string, done: string) => showToast(await copyText(text) ? done : t`Could not copy. Please copy it by hand.`);
  const onShare = async () => {
    const outcome = await shareLink(share);
    if (outcome === 'failed') await copy(link, t`Invitation link copied`);
  };
  return (
    <section className="invite card" aria-labelledby="invite-title" data-testid="invite-card">
      <div className="invite__row">
        <div>
          <h2 className="invite__label" id="invite-title">
            <Trans>Your invitation code</Trans>
          </h2>
          <p className="invite__code" data-testid="invite-code">
            {code}
          </p>
        </div>
        <div className="invite__actions">
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void copy(code, t`Invitation code copied`)} data-testid="invite-copy">
            <Trans>Copy</Trans>
          </button>
          {canShare(share) ? (
            <button type="button" className="btn btn--small" onClick={() => void onShare()} data-testid="invite-share">
              <Trans>Share</Trans>
            </button>
          ) : (
            <button type="button" className="btn btn--small" onClick={() => void copy(link, t`Invitation link copied`)} data-testid="invite-copy-link">
              <Trans>Copy link</Trans>
            </button>
          )}
        </div>
      </div>
      <p className="invite__joined muted" data-testid="joined-at">
        <Trans>Member since {formatDate(joinedAt)}</Trans>
      </p>
    </section>
  );
}

function GuestProfile({ visitor }: { visitor: boolean }) {
  return (
    <div className="section profile-body">
      <section className="guest card" aria-labelledby="guest-title">
        <span className="guest__mark" aria-hidden="true">
          <svg width="30" height="30" viewBox="0 0 24 24">
            <path d="M12 3c4 3 6 6 6 9a6 6 0 0 1-12 0c0-3 2-6 6-9zm0 6v12" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h2 className="guest__title" id="guest-title">
          {visitor ? <Trans>You are browsing as a visitor</Trans> : <Trans>Welcome to Canopy</Trans>}
        </h2>
        <p className="guest__text">
          <Trans>Log in or create an account to buy carbon credits, keep a wallet in SGD and follow your orders.</Trans>
        </p>
        <div className="guest__actions">
          <Link to="/pages/login/index" className="btn">
            <Trans>Log in</Trans>
          </Link>
          <Link to="/pages/register/index" className="btn btn--ghost">
            <Trans>Register</Trans>
          </Link>
        </div>
      </section>
      <PublicMenu />
    </div>
  );
}

function PublicMenu() {
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
  lock: 'M6 11h12v10H6zM8 11V8a4 4 0 0 1 8 0v3',
  card: 'M3 6h18v12H3zM3 10h18M7 15h4',
  plus: 'M12 5v14M5 12h14',
  out: 'M12 19V5M6 11l6-6 6 6',
  list: 'M8 6h13M8 12h13M8 18h13M3.5 6h.01M3.5 12h.01M3.5 18h.01',
  bag: 'M5 8h14l-1 13H6zM9 8V6a3 3 0 0 1 6 0v2',
  leaf: 'M5 19c0-8 6-14 15-14 0 9-6 15-14 15M5 19l7-7',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  help: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5h.01M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  info: 'M12 11v6M12 7.5h.01M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  gear: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
} as const;

function Icon({ name }: { name: keyof typeof icons }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" className="menu__icon">
      <path d={icons[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function GearIcon() {
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
function MenuItem({ to, icon, children }: { to: LinkProps['to']; icon: keyof typeof icons; children: ReactNode }) {
  return (
    <Link to={to} className="menu__item">
      <Icon name={icon} />
      <span className="menu__text">{children}</span>
      {chevron}
    </Link>
  );
}

/** An e-mail address that wraps only before its "@", never inside a word; a part wider than the line ends
 *  in an ellipsis (the full address stays in the title). */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span className="email-part">{address}</span>;
  return (
    <span className="email" title={address}>
      <span className="email-part">{address.slice(0, at)}</span>
      <wbr />
      <span className="email-part">{address.slice(at)}</span>
    </span>
  );
}

function Avatar({ name, src }: { name: string; src?: string }) {
  // Initials of a name ("Alex Tan" -> "AT"); an email address gives its first letter.
  const parts = name.includes('@') ? [name] : name.split(/\s+/).filter(Boolean);
  const initials =
    parts
      .slice(0, 2)
      .map((part) => Array.from(part)[0]!.toUpperCase())
      .join('') || '?';
  return (
    <span className="avatar" aria-hidden="true">
      {src ? <img src={src} alt="" width={64} height={64} /> : initials}
    </span>
  );
}
