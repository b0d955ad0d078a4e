import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatSgd } from '../../lib/format';
import { useMemberId, useUserInfo } from '../../lib/user-info';
import { useMembership } from './api';
import { GRADES, gradeRights } from './order-calc';
import './orders.css';

// /pages/profile/membership: the member's grade P0..P5, each grade's threshold in completed purchases and
// what it allows, all from GET user/membership (the server's configuration, cached for offline reading),
// and the progress to the next grade. Without that answer (a guest, or never loaded) the ladder is told in
// words with the default selling grades.

export function MembershipPage() {
  const { t } = useLingui();
  const memId = useMemberId();
  const { info, member } = useUserInfo();
  const { membership } = useMembership(memId);
  const grade = membership?.grade ?? info?.grade ?? null;
  const thresholds = new Map(membership?.grades.map((g) => [g.grade, g.min_purchases]));
  const next = membership?.next ?? null;
  // The grade the completed purchases reach on their own: below the grade held, an operator gave it
  // (docs/product.md#membership), and the screen says so rather than contradict its own ladder.
  const earned = membership ? Math.max(0, ...membership.grades.filter((g) => membership.purchases >= g.min_purchases).map((g) => g.grade)) : null;
  const granted = grade !== null && earned !== null && grade > earned;
  const progress = next && membership ? Math.min(100, Math.floor((membership.purchases * 100) / Math.max(1, next.min_purchases))) : 100;
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
        {member && membership && (
          <div className="member-progress" data-testid="member-progress">
            <p className="member-progress__total">
              <Trans>Completed purchases: {formatSgd(membership.purchases)}</Trans>
            </p>
            {granted && (
              <p className="notice member-progress__granted" data-testid="member-granted">
                <Trans>
                  P{grade} was given to your account by Canopy: your completed purchases alone reach P{earned}. It stays, and purchases raise it from here.
                </Trans>
              </p>
            )}
            {next ? (
              <>
                <div
                  className="member-progress__bar"
                  role="progressbar"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={progress}
                  aria-label={t`Progress to P${next.grade}`}
                >
                  <span style={{ width: `${progress}%` }} />
                </div>
                <p className="muted member-progress__next">
                  <Trans>
                    {formatSgd(next.remaining)} more in completed purchases reaches P{next.grade}.
                  </Trans>
                </p>
              </>
            ) : (
              <p className="muted member-progress__next">
                <Trans>You have the highest grade.</Trans>
              </p>
            )}
          </div>
        )}
        <p className="muted member-hero__how">
          <Trans>Your grade rises with your total completed purchases (a pre-sale counts at its final price). The grade never goes down by itself.</Trans>
        </p>
      </section>

      <section className="section" aria-labelledby="member-grades">
        <h2 className="section-title" id="member-grades">
          <Trans>What each grade allows</Trans>
        </h2>
        <ul className="grades">
          {GRADES.map((g) => {
            const r = gradeRights(g, membership?.sell_min_grade, membership?.presale_sell_min_grade);
            const mine = g === grade;
            const min = thresholds.get(g);
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
                {min !== undefined && (
                  <p className="grade__threshold" data-testid={`grade-P${g}-threshold`}>
                    {g === 0 ? <Trans>Every member starts here.</Trans> : <Trans>From {formatSgd(min)} in completed purchases</Trans>}
                  </p>
                )}
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
