import { i18n, type Messages } from '@lingui/core';
import type { Locale } from '../../shared/api';
import { localeToWire } from '../../shared/api';
import { getStoredLocale, storeLocale } from './storage';

// Only the active locale's catalog is loaded, so the home route carries one language.
const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../../locales/en/messages.po'),
  'zh-Hans': () => import('../../../locales/zh-Hans/messages.po'),
};

export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await loaders[locale]();
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
  storeLocale(locale);
}

export function currentLocale(): Locale {
  return (i18n.locale as Locale) || getStoredLocale();
}

export function wireLang() {
  return localeToWire(currentLocale());
}

export { i18n };
