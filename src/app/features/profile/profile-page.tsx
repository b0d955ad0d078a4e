import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import type { CachedUserInfo } from '../../lib/user-info';
import { useSession } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { useLogout } from './use-logout';
import { useMemberInfo } from './use-member-info';
import { ProfileHead } from './profile-head';
import { ProfileWallet } from './profile-wallet';
import { InviteCard } from './invite-card';
import { GearIcon, MemberMenus, PublicMenu } from './profile-menu';
import './profile.css';

// The profile tab: the member's photo, wallet, invitation code and menus (the info comes from
// use-member-info.ts, offline too), or for a visitor the way to log in.

export function ProfilePage() {
  const { t } = useLingui();
  const session = useSession();
  const member = session.isLogin && session.login.mem_id > 0;
  const memId = session.login.mem_id;
  const { entry, loading, loadError } = useMemberInfo(member, memId);

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
        <MemberProfile entry={entry} loading={loading} loadError={loadError} fallbackName={session.login.realname || session.login.account} />
      ) : (
        <GuestProfile visitor={Boolean(session.token)} />
      )}
      <TabBar />
    </div>
  );
}

function MemberProfile({ entry, loading, loadError, fallbackName }: { entry?: CachedUserInfo; loading: boolean; loadError: string; fallbackName: string }) {
  const online = useOnline();
  const { logout, busy } = useLogout();
  const info = entry?.info;
  const name = info ? info.realname || info.email : fallbackName;

  return (
    <>
      <ProfileHead info={info} name={name} />
      <div className="section profile-body profile-body--raised">
        {info?.risk && (
          <p className="notice notice--danger profile-notice" role="status">
            <Trans>This account is under risk control: ordering and withdrawals are paused. Please contact support.</Trans>
          </p>
        )}
        {info?.locked && (
          <p className="notice notice--warn profile-notice" role="status">
            <Trans>Withdrawals are locked and your balance is frozen after repeated wrong payment passwords. Please contact the administrator.</Trans>
          </p>
        )}
        {!info && !loading && (
          <p className="notice profile-notice" role="status">
            {loadError || <Trans>Loading your account…</Trans>}
          </p>
        )}

        <ProfileWallet entry={entry} online={online} />
        {info && info.invite_code && <InviteCard code={info.invite_code} joinedAt={info.joined_at} />}
        <MemberMenus />
        <PublicMenu />

        <button type="button" className="btn btn--ghost btn--block profile-logout" data-testid="logout" onClick={() => void logout()} disabled={!online || busy}>
          {!online ? <Trans>Needs a connection</Trans> : busy ? <Trans>Logging out…</Trans> : <Trans>Log out</Trans>}
        </button>
      </div>
    </>
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
