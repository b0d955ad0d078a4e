import { useMemo, useSyncExternalStore } from 'react';
import type { BaseConfig, LoginInfo } from '../../shared/schemas/auth';
import type { Locale } from '../../shared/api';

// Local storage keys (docs/product.md#entities): login info, token, language, isLogin flag, base settings.
export const KEYS = {
  loginInfo: 'login_info',
  token: 'token',
  language: 'language',
  isLogin: 'isLogin',
  baseSettings: 'base_settings',
} as const;

/** The login info as stored: the answer of login/register without the token (kept under its own key). */
export type StoredLoginInfo = Pick<LoginInfo, 'mem_id' | 'realname' | 'account' | 'mobile' | 'avatar' | 'type'>;

/** Base settings as stored: baseconfig's answer; public_holidays may be absent in settings an older
 *  version cached. */
export type BaseSettings = Pick<BaseConfig, 'version' | 'socket_host' | 'currency' | 'server_time_ms' | 'registration_open'> & {
  support_email?: string;
  company?: BaseConfig['company'];
  limits: Omit<BaseConfig['limits'], 'public_holidays'> & { public_holidays?: string[] };
};

export const EMPTY_LOGIN: StoredLoginInfo = { mem_id: 0, realname: '', account: '', mobile: '', avatar: '', type: 'visitor' };

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the app keeps working for this visit
  }
}

type Listener = () => void;
const listeners = new Set<Listener>();
let version = 0;
const emit = () => {
  version++;
  for (const l of listeners) l();
};

export interface SessionState {
  token: string;
  isLogin: boolean;
  login: StoredLoginInfo;
}

let cachedVersion = -1;
let cached: SessionState = { token: '', isLogin: false, login: EMPTY_LOGIN };

export function getSession(): SessionState {
  if (cachedVersion !== version) {
    cached = {
      token: read<string>(KEYS.token, ''),
      isLogin: read<boolean>(KEYS.isLogin, false),
      login: { ...EMPTY_LOGIN, ...read<Partial<StoredLoginInfo>>(KEYS.loginInfo, {}) },
    };
    cachedVersion = version;
  }
  return cached;
}

export function saveLogin(info: LoginInfo): void {
  const { token, mem_id, realname, account, mobile, avatar, type } = info;
  write(KEYS.token, token);
  write(KEYS.loginInfo, { mem_id, realname, account, mobile, avatar, type });
  write(KEYS.isLogin, mem_id > 0);
  emit();
}

export function updateLoginInfo(patch: Partial<StoredLoginInfo>): void {
  write(KEYS.loginInfo, { ...getSession().login, ...patch });
  emit();
}

export function clearSession(): void {
  for (const key of [KEYS.token, KEYS.loginInfo, KEYS.isLogin]) localStorage.removeItem(key);
  emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** The language chosen on this device; with no choice yet, the browser's own (a phone set to Chinese opens
 *  in Chinese from the first screen), else English. Only a choice is stored, so the first-run test holds. */
export function getStoredLocale(): Locale {
  const lang = read<string>(KEYS.language, browserLang());
  return lang === 'cn' || lang === 'zh-Hans' ? 'zh-Hans' : 'en';
}

function browserLang(): string {
  try {
    return /^zh\b/i.test(navigator.language) ? 'cn' : 'en';
  } catch {
    return 'en';
  }
}

/** Stored as the wire value (en / cn), as docs/product.md#entities describes the stored language. */
export function storeLocale(locale: Locale): void {
  write(KEYS.language, locale === 'zh-Hans' ? 'cn' : 'en');
}

export function getBaseSettings(): BaseSettings | null {
  return read<BaseSettings | null>(KEYS.baseSettings, null);
}

const settingsListeners = new Set<Listener>();

export function saveBaseSettings(settings: BaseSettings): void {
  write(KEYS.baseSettings, settings);
  for (const l of settingsListeners) l();
}

function subscribeSettings(listener: Listener): () => void {
  settingsListeners.add(listener);
  return () => settingsListeners.delete(listener);
}

const supportEmail = (): string => getBaseSettings()?.support_email ?? '';

// The snapshot is text: getBaseSettings parses storage anew on every call, and useSyncExternalStore needs
// an unchanged value to compare equal.
const companyText = (): string => JSON.stringify(getBaseSettings()?.company ?? null);

/** The legal entity from baseconfig (undefined until the app has it: settings an older version cached lack it). */
export function useCompany(): BaseConfig['company'] | undefined {
  const text = useSyncExternalStore(subscribeSettings, companyText, companyText);
  return useMemo(() => (JSON.parse(text) as BaseConfig['company'] | null) ?? undefined, [text]);
}

/** The support address from baseconfig ('' until the app has it: settings an older version cached lack it). */
export function useSupportEmail(): string {
  return useSyncExternalStore(subscribeSettings, supportEmail, supportEmail);
}
