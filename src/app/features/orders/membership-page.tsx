import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { useUserInfo } from '../../lib/user-info';
import { GRADES, gradeRights } from './order-calc';
import './orders.css';

// /pages/profile/membership: the member's grade P0..P5 and what each grade allows. The grade thresholds are
// server configuration the base settings do not expose, so they are described in words, not amounts.

export function MembershipPage() {
  const { t } = useLingui();
  const { info, member } = useUserInfo();
  const grade = info?.grade ?? null;
  return (
    <div className="page membership-page">
      <NavBar title={t`Membership`} />
      <OfflineBar />
      <section className="section member-hero card" aria-labelledby="member-grade">
        <h2 id="member-grade" className="member-hero__label">
          <Trans>Your membership grade</Trans>
        </h2>
        {member && grade !== null ? (
          <p className="member-hero__grade" data-testid="member-grade">
            P{grade}
            {grade >= 3 && (
              <span className="member-hero__badge">
                <Trans>Ambassador</Trans>
              </span>
            )}
          </p>
        ) : member ? (
          <p className="muted">
            <Trans>Connect to the internet to see your grade.</Trans>
          </p>
        ) : (
          <p>
            <Link to="/pages/login/index" search={{ redirect: '/pages/profile/membership' }}>
              <Trans>Log in to see your grade.</Trans>
            </Link>
          </p>
        )}
        <p className="muted member-hero__how">
          <Trans>
            Your grade rises with your total completed purchases: each step up needs a larger total, set by the platform. The grade never goes
            down by itself.
          </Trans>
        </p>
      </section>

      <section className="section" aria-labelledby="member-grades">
        <h2 className="section-title" id="member-grades">
          <Trans>What each grade allows</Trans>
        </h2>
        <ul className="grades">
          {GRADES.map((g) => {
            const r = gradeRights(g);
            const mine = g === grade;
            return (
              <li key={g} className={mine ? 'grade card grade--mine' : 'grade card'} aria-current={mine ? 'true' : undefined} data-testid={`grade-P${g}`}>
                <div className="grade__head">
                  <strong className="grade__name">P{g}</strong>
                  {g === 3 && (
                    <span className="member-hero__badge">
                      <Trans>Ambassador</Trans>
                    </span>
                  )}
                  {mine && (
                    <span className="grade__you">
                      <Trans>Your grade</Trans>
                    </span>
                  )}
                </div>
                <ul className="grade__rights">
                  <li>
                    {g === 0 ? (
                      <Trans>Buy and book projects open to all members (P0).</Trans>
                    ) : (
                      <Trans>Buy and book projects that require P{g} or below.</Trans>
                    )}
                  </li>
                  <li className={r.sellPurchase ? '' : 'grade__no'}>
                    {r.sellPurchase ? <Trans>Sell purchased credits back to the platform.</Trans> : <Trans>Cannot sell credits back yet.</Trans>}
                  </li>
                  <li className={r.sellPresale ? '' : 'grade__no'}>
                    {r.sellPresale ? <Trans>Sell credits from pre-sales too.</Trans> : <Trans>Credits from pre-sales cannot be sold.</Trans>}
                  </li>
                </ul>
              </li>
            );
          })}
        </ul>
        <p className="muted facts__note">
          <Trans>Monthly and total limits are set per project and shown on each project. Risk-controlled accounts cannot order or sell at any grade.</Trans>
        </p>
      </section>
    </div>
  );
}
