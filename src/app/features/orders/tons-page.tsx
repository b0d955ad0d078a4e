import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/storage';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import type { CreditMovement } from '../../../shared/schemas/order';
import { useUserInfo } from '../../lib/user-info';
import { useCredits } from './api';
import { LogInState } from '../../components/empty-state';
import './orders.css';

// /pages/profile/tons: the carbon credit balance, holdings per project and every credit movement (the newest
// page), cached in Dexie meta so they read offline.

export function TonsPage() {
  const { t } = useLingui();
  const online = useOnline();
  const session = useSession();
  const { member } = useUserInfo();
  const { credits, savedAt, loading, error } = useCredits(session.login.mem_id, member);

  return (
    <div className="page tons-page">
      <NavBar title={t`Carbon credits`} />
      <OfflineBar />
      {!member ? (
        <LogInState redirect="/pages/profile/tons">
          <Trans>Log in to see your carbon credits.</Trans>
        </LogInState>
      ) : loading ? null : !credits ? (
        <div className="empty">
          <p>{!online ? <Trans>Your credits are not saved on this device. Connect to the internet to see them.</Trans> : error || <Trans>Loading…</Trans>}</p>
        </div>
      ) : (
        <>
          <section className="section tons-balance card" aria-labelledby="tons-balance">
            <h2 id="tons-balance" className="tons-balance__label">
              <Trans>Carbon credit balance</Trans>
            </h2>
            <p className="tons-balance__value" data-testid="credits-balance">
              {formatTons(credits.balance)}
            </p>
            {savedAt && !online && (
              <p className="muted tons-balance__saved">
                <Trans>As of {formatDateTime(savedAt)}</Trans>
              </p>
            )}
          </section>

          <section className="section" aria-labelledby="tons-holdings">
            <h2 className="section-title" id="tons-holdings">
              <Trans>Holdings by project</Trans>
            </h2>
            {credits.holdings.length === 0 ? (
              <div className="empty" data-testid="tons-empty">
                <p>
                  <Trans>No credits yet. Credits arrive when a purchase completes its cycle.</Trans>
                </p>
                <Link to="/pages/project/index" className="btn btn--ghost">
                  <Trans>Browse projects</Trans>
                </Link>
              </div>
            ) : (
              <ul className="holdings">
                {credits.holdings.map((h) => {
                  const price = formatSgd(h.buyback_price);
                  return (
                    <li key={h.project_id} className="holding card" data-testid="holding">
                      <div className="holding__top">
                        <strong className="holding__name">{pick(h, 'project_name')}</strong>
                        <span className="holding__tons">{formatTons(h.tons)}</span>
                      </div>
                      <p className="muted holding__meta">
                        <Trans>
                          Purchased {formatTons(h.purchase_tons)} · pre-sale {formatTons(h.presale_tons)} · buy-back {price} / t
                        </Trans>
                      </p>
                      <Link to="/pages/profile/retire" search={{ project_id: h.project_id }} className="btn btn--ghost holding__sell" data-testid="holding-retire">
                        <Trans>Retire</Trans>
                      </Link>
                      {h.sellable_tons > 0 ? (
                        <Link to="/pages/project/dsell" search={{ id: h.project_id }} className="btn btn--ghost holding__sell" data-testid="holding-sell">
                          <Trans>Sell back up to {formatTons(h.sellable_tons)}</Trans>
                        </Link>
                      ) : (
                        <p className="muted holding__meta">
                          <Trans>Not sellable at your membership level.</Trans>
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          <p className="section tons-links">
            <Link to="/pages/profile/certificates" data-testid="my-certificates">
              <Trans>My retirement certificates</Trans>
            </Link>
            {' · '}
            <Link to="/transparency">
              <Trans>Transparency</Trans>
            </Link>
          </p>

          <section className="section" aria-labelledby="tons-moves">
            <h2 className="section-title" id="tons-moves">
              <Trans>Credit movements</Trans>
            </h2>
            {credits.list.length === 0 ? (
              <p className="muted">
                <Trans context="credit movements">No movements yet.</Trans>
              </p>
            ) : (
              <ul className="moves card">
                {credits.list.map((m) => (
                  <Movement key={m.id} move={m} />
                ))}
              </ul>
            )}
            {credits.total > credits.list.length && (
              <p className="muted facts__note">
                <Trans>
                  Showing the latest {credits.list.length} of {credits.total} movements.
                </Trans>
              </p>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function Movement({ move }: { move: CreditMovement }) {
  const when = formatDateTime(move.created_at_ms);
  const name = move.project_name ? pick(move as { project_name: string; project_name_cn: string | null }, 'project_name') : '';
  const sign = move.amount > 0 ? '+' : '−';
  return (
    <li className="move" data-testid="credit-move">
      <div className="move__main">
        <span className="move__kind">
          {move.kind === 'credit_issue' ? (
            <Trans>Order completed</Trans>
          ) : move.kind === 'credit_sell' ? (
            <Trans>Sold back</Trans>
          ) : move.kind === 'credit_retire' ? (
            <Trans>Retired</Trans>
          ) : (
            <Trans>Credit change</Trans>
          )}
        </span>
        <span className="muted move__meta">
          {name}
          {move.order_no ? ` · ${move.order_no}` : ''}
        </span>
        <span className="muted move__meta">{when}</span>
      </div>
      <div className="move__nums">
        <strong className={move.amount > 0 ? 'move__amount move__amount--in' : 'move__amount'}>
          {sign}
          {formatTons(Math.abs(move.amount))}
        </strong>
        <span className="muted move__after">
          <Trans>Balance {formatTons(move.balance_after)}</Trans>
        </span>
      </div>
    </li>
  );
}
