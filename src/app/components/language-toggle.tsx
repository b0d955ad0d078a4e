import { useLingui } from '@lingui/react/macro';
import { activateLocale } from '../lib/i18n';
import type { Locale } from '../../shared/api';
import './language-toggle.css';

/** EN / 中文 switch for a nav bar; the choice is stored by activateLocale. */
export function LanguageToggle() {
  const { i18n } = useLingui();
  const next: Locale = i18n.locale === 'zh-Hans' ? 'en' : 'zh-Hans';
  return (
    <button
      type="button"
      className="lang-toggle"
      onClick={() => void activateLocale(next)}
      lang={next}
      // The name holds the visible text ("EN", "中文") so a voice command of what is seen finds the button.
      aria-label={next === 'en' ? 'Switch to English, EN' : '切换到中文'}
    >
      <span className="lang-toggle__pill">{next === 'en' ? 'EN' : '中文'}</span>
    </button>
  );
}
