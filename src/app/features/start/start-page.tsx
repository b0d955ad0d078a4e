import { useEffect, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { activateLocale } from '../../lib/i18n';
import { markStartSeen } from '../../lib/first-run';
import type { Locale } from '../../../shared/api';
import './start.css';

// The first screen of a new install (docs/product.md#first-run): what Canopy is in three panels, the
// language, and three ways in. Shown once: it is marked seen as soon as it is drawn
// (docs/decisions/0005-start.md). Everything here is in the precached bundle and the catalog, so it works
// offline.

const LANGUAGES: ReadonlyArray<{ locale: Locale; label: string }> = [
  { locale: 'en', label: 'English' },
  { locale: 'zh-Hans', label: '中文' },
];

function Panel({ icon, title, children }: { icon: ReactNode; title: ReactNode; children: ReactNode }) {
  return (
    <li className="start-panel card">
      <span className="start-panel__icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <h2 className="start-panel__title">{title}</h2>
        <p className="start-panel__text">{children}</p>
      </div>
    </li>
  );
}

const icon = (d: string) => (
  <svg width="28" height="28" viewBox="0 0 24 24">
    <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export function StartPage() {
  const { t, i18n } = useLingui();
  useEffect(() => markStartSeen(), []);
  return (
    <div className="page start-page">
      <header className="start-hero">
        <p className="start-hero__brand">Canopy</p>
        <h1 className="start-hero__title">
          <Trans>Offset your carbon footprint, one ton at a time</Trans>
        </h1>
      </header>

      <div className="section">
        <div className="segmented start-lang" role="group" aria-label={t`Language`}>
          {LANGUAGES.map((l) => (
            <button
              key={l.locale}
              type="button"
              lang={l.locale}
              aria-pressed={i18n.locale === l.locale}
              data-testid={l.locale === 'en' ? 'start-lang-en' : 'start-lang-zh'}
              onClick={() => void activateLocale(l.locale)}
            >
              {l.label}
            </button>
          ))}
        </div>

        <ul className="start-panels">
          <Panel icon={icon('M12 3l7 11h-4l3 6H6l3-6H5z M12 20v2')} title={<Trans>Verified projects</Trans>}>
            <Trans>Forests, mangroves, clean energy and cookstoves in Asia, each certified by a recognised standard.</Trans>
          </Panel>
          <Panel icon={icon('M4 7h16v12H4z M4 11h16 M8 15h3')} title={<Trans>By the ton, in SGD</Trans>}>
            <Trans>Buy carbon credits by the ton, book pre-sales, and sell them back from your wallet.</Trans>
          </Panel>
          <Panel icon={icon('M4 20V10 M10 20V4 M16 20v-7 M22 20H2')} title={<Trans>Know your footprint</Trans>}>
            <Trans>A short questionnaire estimates your yearly footprint, even offline, and what it takes to offset it.</Trans>
          </Panel>
        </ul>

        <div className="start-actions">
          <Link to="/pages/register/index" className="btn btn--block" data-testid="start-register">
            <Trans>Create account</Trans>
          </Link>
          <Link to="/pages/login/index" className="btn btn--ghost btn--block" data-testid="start-login">
            <Trans>Log in</Trans>
          </Link>
          <Link to="/" className="start-browse" data-testid="start-browse">
            <Trans>Browse first</Trans>
          </Link>
        </div>
      </div>
    </div>
  );
}
