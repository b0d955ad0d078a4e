import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { formatDateTime, formatSgd, formatTons } from '../../lib/format';
import type { CachedUserInfo } from '../../lib/user-info';

/** The wallet in SGD and the credits held, with top-up and withdraw; offline, the time of the figures. */
export function ProfileWallet({ entry, online }: { entry?: CachedUserInfo; online: boolean }) {
  const wallet = entry?.info.wallet;
  return (
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
  );
}
