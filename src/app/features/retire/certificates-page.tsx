import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatDate, formatTons, pick } from '../../lib/format';
import { useMemberId } from '../../lib/user-info';
import { certificatePath, useMyCertificates } from './api';
import { ShareButton } from './share';
import './retire.css';
import { RegistryStatusLine } from './registry-status';

// /pages/profile/certificates: the member's retirement certificates, newest first, each with a link to its
// public page and a share button. Kept in Dexie, so the list reads offline.

export function CertificatesPage() {
  const { t } = useLingui();
  const memId = useMemberId();
  const { list, error, online } = useMyCertificates(memId);
  return (
    <div className="page certificates-page">
      <NavBar title={t`My certificates`} />
      <OfflineBar />
      {memId <= 0 ? (
        <div className="empty">
          <p>
            <Trans>Log in to see your certificates.</Trans>
          </p>
        </div>
      ) : !list ? (
        <p className="empty">{!online ? t`Your certificates are not saved on this device yet.` : error || t`Loading…`}</p>
      ) : list.length === 0 ? (
        <div className="empty" data-testid="certificates-empty">
          <p>
            <Trans>No retirements yet. Retire credits from your carbon credit balance to get a public certificate.</Trans>
          </p>
          <Link to="/pages/profile/retire" className="btn btn--ghost">
            <Trans>Retire credits</Trans>
          </Link>
        </div>
      ) : (
        <ul className="section certificates">
          {list.map((c) => (
            <li key={c.id} className="card certificate-item" data-testid="certificate-item">
              <div className="certificate-item__top">
                <strong>{formatTons(c.tons)}</strong>
                <span className="muted">{formatDate(c.retired_at_ms)}</span>
              </div>
              <p className="certificate-item__project">{pick(c, 'project_name')}</p>
              <p className="muted">
                <Trans>For {c.beneficiary}</Trans>
              </p>
              <RegistryStatusLine c={c} />
              {c.beneficiary_hidden && (
                <p className="muted" data-testid="certificate-item-hidden">
                  <Trans>The public certificate shows “a Canopy customer”.</Trans>
                </p>
              )}
              <div className="certificate-item__actions">
                <a className="btn btn--ghost" href={certificatePath(c.id)} data-testid="certificate-open">
                  <Trans>View</Trans>
                </a>
                <ShareButton id={c.id} />
                <Link to="/pages/profile/receipts" search={{ retirement_id: c.id }} className="btn btn--ghost" data-testid="certificate-receipt">
                  <Trans>Receipt</Trans>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="section muted">
        <Link className="tap-link" to="/transparency">
          <Trans>See the platform's public transparency figures</Trans>
        </Link>
      </p>
    </div>
  );
}
