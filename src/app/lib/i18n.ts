import { i18n, type Messages } from '@lingui/core';
import type { Locale } from '../../shared/api';
import { localeToWire } from '../../shared/api';
import { getStoredLocale, storeLocale } from './storage';

// Only the active locale is loaded, in two parts: the `core` catalog (what the home screen draws) before
// the first render, and `messages` (every other screen) when the first other screen is opened or
// preloaded, like a lazy route's code (see routes/__root.tsx), so no screen ever shows a message id. The
// service worker precaches both, so this works offline too.
type Catalog = () => Promise<{ messages: Messages }>;
const core: Record<Locale, Catalog> = {
  en: () => import('../../../locales/en/core.po'),
  'zh-Hans': () => import('../../../locales/zh-Hans/core.po'),
};
const rest: Record<Locale, Catalog> = {
  en: () => import('../../../locales/en/messages.po'),
  'zh-Hans': () => import('../../../locales/zh-Hans/messages.po'),
};

const restLoaded = new Map<Locale, Promise<void>>();

/** Loads (once) the rest of a locale's messages into the i18n instance. */
export function ensureAllMessages(locale: Locale = currentLocale()): Promise<void> {
  let pending = restLoaded.get(locale);
  if (!pending) {
    pending = rest[locale]().then(({ messages }) => i18n.load(locale, messages));
    pending.catch(() => restLoaded.delete(locale)); // offline before it was cached: try again next time
    restLoaded.set(locale, pending);
  }
  return pending;
}

export async function activateLocale(locale: Locale): Promise<void> {
  // The choice is kept at once, even if its texts are still loading.
  storeLocale(locale);
  const { messages } = await core[locale]();
  i18n.load(locale, messages);
  // A language switch away from home has every text ready before it shows.
  if (restLoaded.has(locale) || i18n.locale) await ensureAllMessages(locale);
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

export function currentLocale(): Locale {
  return (i18n.locale as Locale) || getStoredLocale();
}

export function wireLang() {
  return localeToWire(currentLocale());
}

export { i18n };
