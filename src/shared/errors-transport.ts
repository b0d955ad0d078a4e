// The few catalogue entries the client's transport needs on every screen (lib/api.ts, lib/sync.ts,
// lib/intent-key.ts): session, network, timeout, offline, not found, a write in progress. They live here so
// the home route does not load the whole error catalogue (errors.ts, which spreads these into ERRORS: one
// catalogue, one code per entry).

export type Lang = 'en' | 'cn';

export interface CatalogueEntry {
  readonly code: number;
  readonly en: string;
  readonly cn: string;
}

export const TRANSPORT_ERRORS = {
  session_expired: { code: -1, en: 'You have logged out or your login session has expired.', cn: '您已退出登录或登录已过期。' },
  network_error: { code: 1, en: 'Network error', cn: '网络错误' },
  timeout_retry: { code: 2, en: 'The connection timed out. Tap the screen to retry.', cn: '连接超时，请点击屏幕重试。' },
  server_error: { code: 3, en: 'Something went wrong on our side. Please try again.', cn: '服务器出错了，请稍后重试。' },
  offline: { code: 4, en: 'You are offline. This needs a connection.', cn: '您处于离线状态，此操作需要网络连接。' },
  // The database is briefly away (an outage or a restart of it): retry, not a defect (HTTP 503 + Retry-After).
  service_unavailable: { code: 5, en: 'The service is briefly unavailable. Please try again in a moment.', cn: '服务暂时不可用，请稍后重试。' },
  idempotency_in_progress: { code: 1008, en: 'This request is already being processed.', cn: '该请求正在处理中。' },
  not_found: { code: 1009, en: 'Not found.', cn: '未找到。' },
} as const satisfies Record<string, CatalogueEntry>;

export type TransportErrorKey = keyof typeof TRANSPORT_ERRORS;

export function transportMessage(key: TransportErrorKey, lang: Lang): string {
  return TRANSPORT_ERRORS[key][lang];
}
