import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { LanguageToggle } from '../../components/language-toggle';
import { NavBar } from '../../components/nav-bar';
import { QrSvg } from '../../components/qr-svg';
import { formatDateTime, formatTons, pick } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { certificateHref, certificatePdfHref, useCertificate } from './api';
import type { Certificate as CertificateData } from '../../../shared/schemas/retire';
import './retire.css';
import { SerialRanges } from './serial-ranges';
import { RegistryStatus } from './registry-status';

// /certificate/<id>: a retirement's public certificate. No login. Beneficiary, tons, the project (name,
// registry and ID, methodology, vintage, country), serial ranges, the date in SGT, the reason and a QR
// code of this page's own address, and where it stands on the registry (cancelled with its reference, or
// waiting and due by when: registry-status.tsx). Prints as one A4 page (retire.css @media print). Kept in Dexie once
// seen, so it opens offline.

export function CertificatePage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const load = useCertificate(id);
  return (
    <div className="page certificate-page">
      {/* The app's own bar, so a page opened from a shared link has a way into the app (back, or home when
          there is no history) and the language pill where every other screen has its tools; print leaves it out. */}
      <NavBar title={t`Retirement certificate`} right={<LanguageToggle />} />
      {load.state === 'ready' && (
        <div className="certificate-tools no-print">
          <button type="button" className="btn btn--ghost certificate-bar__print" onClick={() => window.print()} data-testid="certificate-print">
            <Trans>Print</Trans>
          </button>
          <a className="btn btn--ghost certificate-bar__print" href={certificatePdfHref(id, localeToWire(i18n.locale as Locale))} download data-testid="certificate-pdf">
            <Trans>Download PDF</Trans>
          </a>
          <Link to="/pages/project/index" className="btn btn--ghost certificate-bar__print" data-testid="certificate-explore">
            <Trans>Explore projects</Trans>
          </Link>
        </div>
      )}
      {load.state === 'loading' ? (
        <p className="empty">{t`Loading…`}</p>
      ) : load.state === 'missing' ? (
        <div className="empty" data-testid="certificate-missing">
          <p>{load.message}</p>
        </div>
      ) : load.state === 'offline' ? (
        <div className="empty">
          <p>
            <Trans>This certificate is not saved on this device. Connect to the internet to open it.</Trans>
          </p>
        </div>
      ) : (
        <CertificateView c={load.certificate} />
      )}
    </div>
  );
}

function CertificateView({ c }: { c: CertificateData }) {
  const { t } = useLingui();
  const url = certificateHref(c.id);
  const tons = formatTons(c.tons);
  return (
    <article className="certificate" data-testid="certificate" aria-labelledby="certificate-title">
      <p className="certificate__kicker">
        <Trans>Canopy carbon credit marketplace</Trans>
      </p>
      <h1 id="certificate-title" className="certificate__title">
        <Trans>Certificate of retirement</Trans>
      </h1>
      <p className="certificate__lead">
        <Trans>This certifies that</Trans>
      </p>
      <p className="certificate__tons" data-testid="certificate-tons">
        {tons}
      </p>
      <p className="certificate__lead">
        <Trans>of verified carbon credits (tCO₂e) were permanently retired on behalf of</Trans>
      </p>
      {/* The page shows what anyone sees, also to the owner whose device keeps the name from their own list
          (docs/product.md#retirement). */}
      <p className="certificate__beneficiary" data-testid="certificate-beneficiary">
        {c.beneficiary_hidden ? t`a Canopy customer` : c.beneficiary}
      </p>
      {c.reason && !c.beneficiary_hidden && (
        <p className="certificate__reason" data-testid="certificate-reason">
          “{c.reason}”
        </p>
      )}
      <RegistryStatus c={c} />
      <dl className="certificate__facts">
        <dt>
          <Trans>Project</Trans>
        </dt>
        <dd data-testid="certificate-project">{pick(c, 'project_name')}</dd>
        <dt>
          <Trans>Registry</Trans>
        </dt>
        <dd>
          {c.registry} · {c.registry_id}
        </dd>
        <dt>
          <Trans>Methodology</Trans>
        </dt>
        <dd>{c.methodology}</dd>
        <dt>
          <Trans>Vintage</Trans>
        </dt>
        <dd>{c.vintage}</dd>
        <dt>
          <Trans>Country</Trans>
        </dt>
        <dd>{pick(c, 'country')}</dd>
        <dt>
          <Trans>Retired on</Trans>
        </dt>
        <dd data-testid="certificate-date">{formatDateTime(c.retired_at_ms)} (SGT)</dd>
        <dt>
          <Trans>Serial numbers</Trans>
        </dt>
        <dd>
          <SerialRanges serials={c.serials} testId="certificate-serials" />
        </dd>
      </dl>
      <footer className="certificate__foot">
        <div className="qr" role="img" aria-label={t`QR code of this certificate's address`} data-testid="certificate-qr" data-qr-text={url}>
          <QrSvg text={url} margin={2} />
        </div>
        <div className="certificate__verify">
          <p>
            <Trans>Verify this certificate at</Trans>
          </p>
          <p className="certificate__url">{url}</p>
          <p className="muted">
            <Trans>Certificate ID {c.id}</Trans>
          </p>
          <p className="no-print">
            <Link to="/transparency">
              <Trans>Platform transparency figures</Trans>
            </Link>
          </p>
        </div>
      </footer>
    </article>
  );
}
