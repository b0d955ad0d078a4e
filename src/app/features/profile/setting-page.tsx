import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { activateLocale } from '../../lib/i18n';
import { getBaseSettings, useSession } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import type { Locale } from '../../../shared/api';
import { useLogout } from './use-logout';
import './profile.css';

const languages: { locale: Locale; label: string }[] = [
  { locale: 'en', label: 'English' },
  { locale: 'zh-Hans', label: '中文' },
];

export function SettingPage() {
  const { t, i18n } = useLingui();
  const session = useSession();
  const online = useOnline();
  const { logout, busy } = useLogout();
  const [switching, setSwitching] = useState<Locale | null>(null);
  const current = (switching ?? i18n.locale) as Locale;
  const version = getBaseSettings()?.version;
  const member = session.isLogin && session.login.mem_id > 0;

  const choose = async (locale: Locale) => {
    if (locale === i18n.locale) return;
    setSwitching(locale);
    try {
      await activateLocale(locale);
      // Pushes come in the language of the request that turned them on: tell the server the new one.
      if (member) void import('../../lib/push').then((m) => m.resyncPush());
    } finally {
      setSwitching(null);
    }
  };

  return (
    <div className="page settings-page">
      <NavBar title={t`Settings`} />
      <div className="section">
        <fieldset className="settings-group">
          <legend className="settings-heading">
            <Trans>Language</Trans>
          </legend>
          <div className="card settings-group__card">
            {languages.map((l) => (
              <label key={l.locale} className="settings-option" lang={l.locale} data-testid={l.locale === 'en' ? 'lang-en' : 'lang-zh'}>
                <input type="radio" name="language" value={l.locale} checked={current === l.locale} onChange={() => void choose(l.locale)} />
                <span className="settings-option__label">{l.label}</span>
                <svg className="settings-option__tick" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
                  <path d="M5 12.5l4.5 4.5L19 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </label>
            ))}
          </div>
        </fieldset>

        <h2 className="settings-heading">
          <Trans>About</Trans>
        </h2>
        <div className="menu card">
          <Link className="menu__item" to="/pages/other/protocol">
            <span className="menu__text">
              <Trans>User Agreement</Trans>
            </span>
            <Chevron />
          </Link>
          <Link className="menu__item" to="/pages/other/privacy">
            <span className="menu__text">
              <Trans>Privacy Policy</Trans>
            </span>
            <Chevron />
          </Link>
          <Link className="menu__item" to="/pages/about/index">
            <span className="menu__text">
              <Trans>About us</Trans>
            </span>
            <Chevron />
          </Link>
          <div className="menu__item menu__item--static">
            <span className="menu__text">
              <Trans>App version</Trans>
            </span>
            <span className="muted" data-testid="app-version">
              {version || '—'}
            </span>
          </div>
        </div>

        {member ? (
          <button type="button" className="btn btn--ghost btn--block profile-logout" data-testid="logout" onClick={() => void logout()} disabled={!online || busy}>
            {!online ? <Trans>Needs a connection</Trans> : busy ? <Trans>Logging out…</Trans> : <Trans>Log out</Trans>}
          </button>
        ) : (
          <Link to="/pages/login/index" className="btn btn--block profile-logout">
            <Trans>Log in</Trans>
          </Link>
        )}
      </div>
    </div>
  );
}

function Chevron() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className="menu__chevron">
      <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
