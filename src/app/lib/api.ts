import { ofetch, FetchError } from 'ofetch';
import { API_BASE, type Envelope } from '../../shared/api';
import { ENVELOPE_DEFAULT_WAIT, REQUEST_TIMEOUT_MS } from '../../shared/constants';
import { errorMessage } from '../../shared/errors';
import { clearSession, getBaseSettings, getSession } from './storage';
import { wireLang } from './i18n';
import { noteServerTime } from './server-time';
import { noteReachable } from './online';

// The request layer of SPEC sections 7 and 8. Every call: base path /h5/api, 60 s timeout, credentials,
// JSON, no-cache headers, the stored token in Authorization, and lang / t / v added to its data (GET in
// the query string). Answers are normalised to {code, msg, data, wait, time}.

export interface ApiResult<T = unknown> {
  code: number;
  msg: string;
  data: T;
  wait: number;
  time: number | string;
}

export interface ApiHooks {
  /** A short message (SPEC: "Network error" toast with an error icon). */
  toast(message: string, kind: 'error' | 'success' | 'info'): void;
  /** The session is gone: SPEC sends the user to /pages/login/index. */
  onSignedOut(): void;
  /** The connection timed out: SPEC asks the user to tap the screen to retry (reload). */
  onTimeout(): void;
}

let hooks: ApiHooks = { toast: () => undefined, onSignedOut: () => undefined, onTimeout: () => undefined };
let baseURL = API_BASE;

export function configureApi(next: Partial<ApiHooks> & { origin?: string }): void {
  hooks = { ...hooks, ...next };
  if (next.origin !== undefined) baseURL = next.origin + API_BASE;
}

export interface RequestOptions {
  /** One key per user intent; reused when the same intent is retried (DECISIONS "Writes and retries"). */
  idempotencyKey?: string;
  /** Do not toast on a network failure (background refreshes). */
  quiet?: boolean;
  signal?: AbortSignal;
}

/** The session is over: forget it and tell the app (code -1 here, or the live socket's close 4001). */
export function signOut(): void {
  clearSession();
  hooks.onSignedOut();
}

function common(data: Record<string, unknown> | undefined) {
  return { ...(data ?? {}), lang: wireLang(), t: Date.now(), v: getBaseSettings()?.version ?? '' };
}

function headers(opts: RequestOptions): Record<string, string> {
  const h: Record<string, string> = {
    Accept: 'application/json',
    'Cache-Control': 'no-cache',
    Pragma: 'no-cache',
    Authorization: getSession().token,
  };
  if (opts.idempotencyKey) h['Idempotency-Key'] = opts.idempotencyKey;
  return h;
}

function normalise<T>(body: unknown): ApiResult<T> | null {
  if (body === null || body === undefined || body === '' || typeof body !== 'object') return null;
  const env = body as Partial<Envelope<T>>;
  const code = typeof env.code === 'number' ? env.code : Number(env.code ?? 0);
  return {
    code: Number.isFinite(code) ? code : 1,
    msg: typeof env.msg === 'string' ? env.msg : '',
    data: (env.data ?? null) as T,
    wait: typeof env.wait === 'number' ? env.wait : ENVELOPE_DEFAULT_WAIT,
    time: env.time ?? '',
  };
}

export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export async function request<T = unknown>(
  method: 'GET' | 'POST',
  path: string,
  data?: Record<string, unknown>,
  opts: RequestOptions = {},
): Promise<ApiResult<T>> {
  const payload = common(data);
  let status = 0;
  let raw: unknown;
  // Our own timeout signal: ofetch ignores its `timeout` option when a caller passes a signal.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The request timed out', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  const forward = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', forward, { once: true });
  try {
    const response = await ofetch.raw(path, {
      baseURL,
      method,
      credentials: 'include',
      headers: headers(opts),
      ...(method === 'GET' ? { query: payload } : { body: payload }),
      responseType: 'json',
      ignoreResponseError: true,
      retry: 0,
      signal: controller.signal,
    });
    status = response.status;
    raw = response._data;
    noteReachable(status > 0 && status < 500);
  } catch (err) {
    const isTimeout =
      (controller.signal.aborted && !opts.signal?.aborted) ||
      (err instanceof FetchError && (err.cause as { name?: string } | undefined)?.name === 'TimeoutError');
    if (isTimeout || (err as { name?: string }).name === 'TimeoutError') {
      hooks.onTimeout();
      return { code: 2, msg: errorMessage('timeout_retry', wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
    }
    if ((err as { name?: string }).name === 'AbortError') throw err;
    noteReachable(false);
    const msg = errorMessage(isOffline() ? 'offline' : 'network_error', wireLang());
    if (!opts.quiet) hooks.toast(errorMessage('network_error', wireLang()), 'error');
    return { code: 1, msg, data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', forward);
  }

  // A throttle (HTTP 429) answers the catalogue envelope in the user's language: it is a refusal like
  // any other (the form shows its message), not a network failure.
  if (status === 429) {
    const env = normalise<T>(raw);
    if (env && env.code > 0) return { ...env, data: null as T };
  }
  if (status !== 200 && status !== 204) {
    if (!opts.quiet) hooks.toast(errorMessage('network_error', wireLang()), 'error');
    const env = normalise<T>(raw);
    return {
      code: status || env?.code || 1,
      msg: env?.msg || errorMessage('network_error', wireLang()),
      data: null as T,
      wait: env?.wait ?? ENVELOPE_DEFAULT_WAIT,
      time: env?.time ?? '',
    };
  }

  const result = normalise<T>(raw);
  // No body, or a code below 0: the session is over (SPEC section 6 and 8).
  if (!result || result.code < 0) {
    signOut();
    return result ?? { code: -1, msg: errorMessage('session_expired', wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
  }
  noteServerTime(result.time);
  return result;
}

export const get = <T>(path: string, data?: Record<string, unknown>, opts?: RequestOptions) => request<T>('GET', path, data, opts);
export const post = <T>(path: string, data?: Record<string, unknown>, opts?: RequestOptions) => request<T>('POST', path, data, opts);

/** Multipart upload (SPEC section 7): field `file`, extra form data, lang in the query string, progress. */
export function upload<T = unknown>(
  path: string,
  file: Blob,
  extra: Record<string, string> = {},
  onProgress?: (fraction: number) => void,
): Promise<ApiResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const url = `${baseURL}${path}?lang=${wireLang()}&t=${Date.now()}`;
    xhr.open('POST', url);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader('Authorization', getSession().token);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    const fail = (code: number, key: 'network_error' | 'timeout_retry') => {
      if (key === 'timeout_retry') hooks.onTimeout();
      else hooks.toast(errorMessage('network_error', wireLang()), 'error');
      resolve({ code, msg: errorMessage(key, wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' });
    };
    xhr.onerror = () => fail(1, 'network_error');
    xhr.ontimeout = () => fail(2, 'timeout_retry');
    xhr.onload = () => {
      if (xhr.status !== 200 && xhr.status !== 204) return fail(xhr.status || 1, 'network_error');
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      const result = normalise<T>(body);
      if (!result || result.code < 0) {
        signOut();
        resolve(result ?? { code: -1, msg: errorMessage('session_expired', wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' });
        return;
      }
      resolve(result);
    };
    const form = new FormData();
    form.append('file', file);
    for (const [k, val] of Object.entries(extra)) form.append(k, val);
    xhr.send(form);
  });
}

/** A fresh key for one user intent. */
export function newIdempotencyKey(): string {
  // crypto.randomUUID exists only on secure origins; a phone on http://192.168.x.x has getRandomValues.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
