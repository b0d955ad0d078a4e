import { formatSgd } from '../../shared/money';
import { currentLocale } from './i18n';

export { formatSgd };

/** A localised text of bilingual content: the Chinese field when the app is in Chinese. */
export function pick<T extends object>(item: T, field: keyof T & string): string {
  const cn = (item as Record<string, unknown>)[`${field}_cn`];
  const en = (item as Record<string, unknown>)[field];
  return currentLocale() === 'zh-Hans' && typeof cn === 'string' && cn ? cn : String(en ?? '');
}

export function formatDate(ms: number): string {
  return new Intl.DateTimeFormat(currentLocale() === 'zh-Hans' ? 'zh-Hans-SG' : 'en-SG', {
    timeZone: 'Asia/Singapore',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  }).format(ms);
}

export function formatDateTime(ms: number): string {
  return new Intl.DateTimeFormat(currentLocale() === 'zh-Hans' ? 'zh-Hans-SG' : 'en-SG', {
    timeZone: 'Asia/Singapore',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(ms);
}

export function formatTons(tons: number): string {
  return `${tons.toLocaleString('en-US')} t`;
}
