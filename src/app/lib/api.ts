import { API_BASE, type Envelope } from '../../shared/api';
import { ENVELOPE_DEFAULT_WAIT, REQUEST_TIMEOUT_MS } from '../../shared/constants';
import { TRANSPORT_ERRORS, transportMessage as errorMessage } from '../../shared/errors-transport';
import { clearSession, getBaseSettings, getSession } from './storage';
import { wireLang } from './i18n';
import { noteServerTime } from './server-time';
import { noteReachable, whenReachable } from './online';

// The request layer (docs/product.md#api-conventions, docs/product.md#error-catalogue). Every call: base path
// /h5/api, 60 s timeout, credentials, JSON, no-cache headers, the stored token in Authorization, and lang / v
// added to its data (GET in the query string); a POST carries t too. Answers are normalised to {code, msg,
// data, wait, time}.
//
// GETs carry no timestamp: the service worker keeps public reads (projects, news, content) under stable
// keys and answers them from its cache first (docs/decisions/0015-scale.md, "Offline reads"). Such an answer
// is marked with the FROM_CACHE header; it never counts as the server being reachable, and the read is
// revalidated at once through the network (`revalidated`), whose outcome is what the offline bar shows.

export interface ApiResult<T = unknown> {
  code: number;
  msg: string;
  data: T;
  wait: number;
  time: number | string;
  /** The service worker answered from its cache (set only then). */
  fromCache?: true;
  /** With fromCache: the same read through the network, already under way (a failure when the network
   *  fails). Apply it too, so the cache's copy does not last. */
  revalidated?: Promise<ApiResult<T>>;
}

/** Set by the service worker on an answer it took from its cache (vite.config.ts, runtimeCaching). */
export const FROM_CACHE_HEADER = 'X-From-Cache';

export interface ApiHooks {
  /** A short message ("Network error" toast with an error icon: docs/product.md#error-catalogue). */
  toast(message: string, kind: 'error' | 'success' | 'info'): void;
  /** The session is gone: docs/product.md#roles sends the user to /pages/login/index. `hadSession`: this
   *  device held a session until now (a member signed out, not a guest refused). */
  onSignedOut(hadSession: boolean): void;
  /** The connection timed out: docs/product.md#error-catalogue asks the user to tap the screen to retry (reload). */
  onTimeout(): void;
}

let hooks: ApiHooks = { toast: () => undefined, onSignedOut: () => undefined, onTimeout: () => undefined };
let baseURL = API_BASE;

export function configureApi(next: Partial<ApiHooks> & { origin?: string }): void {
  hooks = { ...hooks, ...next };
  if (next.origin !== undefined) baseURL = next.origin + API_BASE;
}

export interface RequestOptions {
  /** One key per user intent; reused when the same intent is retried (docs/product.md#writes-and-retries). */
  idempotencyKey?: string;
  /** Do not toast on a network failure (background refreshes). */
  quiet?: boolean;
  signal?: AbortSignal;
  /** GET: ask the network, not the service worker's cached copy (a socket's invalidation says it changed).
   *  Sent as the fetch cache mode `no-cache`, which the service worker routes network-first. */
  fresh?: boolean;
  /** Nobody waits on this read (a revalidation, a reachability probe): no toast, and a timeout only marks
   *  the server unreachable instead of asking the user to retry. */
  background?: boolean;
}

/** The session is over: forget it and tell the app (code -1 here, or the live socket's close 4001). */
export function signOut(): void {
  const hadSession = Boolean(getSession().token);
  clearSession();
  hooks.onSignedOut(hadSession);
}

function common(method: 'GET' | 'POST', data: Record<string, unknown> | undefined) {
  const payload: Record<string, unknown> = { ...(data ?? {}), lang: wireLang(), v: getBaseSettings()?.version ?? '' };
  // A GET's URL is its cache key: a timestamp would make every read a miss. Freshness comes from the
  // socket's invalidations and the revalidation of every cached answer instead.
  if (method === 'POST') payload.t = Date.now();
  return payload;
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

/** A GET's query: its URL is the service worker's cache key, so the same data always writes the same
 *  string (keys in the order given; an array repeats its key, an object is JSON, null is empty). */
function queryString(data: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) q.append(key, v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean));
  }
  return q.toString();
}

/** The answer's body: JSON when it parses, else its text (no body: undefined), which normalise() refuses. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 304) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
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
  const payload = common(method, data);
  const quiet = opts.quiet || opts.background;
  let status: number;
  let raw: unknown;
  let fromCache: boolean;
  // A timeout of our own, beside the caller's signal.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The request timed out', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  const forward = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', forward, { once: true });
  try {
    const isGet = method === 'GET';
    const response = await fetch(isGet ? `${baseURL}${path}?${queryString(payload)}` : baseURL + path, {
      method,
      credentials: 'include',
      headers: isGet ? headers(opts) : { ...headers(opts), 'Content-Type': 'application/json' },
      ...(isGet ? {} : { body: JSON.stringify(payload) }),
      signal: controller.signal,
      ...(isGet && opts.fresh ? { cache: 'no-cache' as const } : {}),
    });
    raw = await readBody(response);
    status = response.status;
    fromCache = response.headers.get(FROM_CACHE_HEADER) === '1';
    // An answer from the service worker's cache says nothing about the server, unless a fresh read got
    // it (a worker that falls back to its cache): then the network just failed.
    if (!fromCache) noteReachable(status > 0 && status < 500);
    else if (opts.fresh) noteReachable(false);
  } catch (err) {
    const isTimeout =
      controller.signal.aborted && !opts.signal?.aborted;
    if (isTimeout || (err as { name?: string }).name === 'TimeoutError') {
      if (opts.background) noteReachable(false);
      else hooks.onTimeout();
      return { code: 2, msg: errorMessage('timeout_retry', wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
    }
    if ((err as { name?: string }).name === 'AbortError') throw err;
    noteReachable(false);
    const msg = errorMessage(isOffline() ? 'offline' : 'network_error', wireLang());
    if (!quiet) hooks.toast(errorMessage('network_error', wireLang()), 'error');
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
  // The server up but its database briefly away (503, catalogue code 5): its own message, so the user
  // reads "try again in a moment", not a network fault on their side.
  if (status === 503) {
    const env = normalise<T>(raw);
    if (env?.code === TRANSPORT_ERRORS.service_unavailable.code) {
      if (!quiet) hooks.toast(env.msg, 'error');
      return { ...env, data: null as T };
    }
  }
  if (status !== 200 && status !== 204) {
    if (!quiet) hooks.toast(errorMessage('network_error', wireLang()), 'error');
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
  // No body, or a code below 0: the session is over (docs/product.md#roles, docs/product.md#error-catalogue).
  if (!result || result.code < 0) {
    signOut();
    return result ?? { code: -1, msg: errorMessage('session_expired', wireLang()), data: null as T, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
  }
  if (!fromCache) {
    noteServerTime(result.time);
    return result;
  }
  // A fresh read that fell back to the cache: the network is down, there is nothing newer to wait for.
  if (opts.fresh) return { ...result, fromCache: true };
  return { ...result, fromCache: true, revalidated: revalidate<T>(method, path, data, opts) };
}

const revalidations = new Map<string, Promise<ApiResult<unknown>>>();

/**
 * Stale while revalidate: the cached answer now, the network's answer when it comes. Not cancelled with
 * the caller (it refreshes the worker's cache for whoever reads next). While the server is known to be
 * unreachable it waits until it is back (a probe, lib/online.ts), so an offline start does not spend its
 * first moments on reads bound to fail, and what was read offline is brought up to date on return. One at
 * a time per URL.
 */
function revalidate<T>(method: 'GET' | 'POST', path: string, data: Record<string, unknown> | undefined, opts: RequestOptions): Promise<ApiResult<T>> {
  const key = `${wireLang()} ${path} ${JSON.stringify(data ?? {})}`;
  let pending = revalidations.get(key);
  if (!pending) {
    pending = whenReachable()
      .then(() => request<T>(method, path, data, { ...opts, signal: undefined, fresh: true, background: true }))
      .finally(() => revalidations.delete(key));
    revalidations.set(key, pending);
  }
  return pending as Promise<ApiResult<T>>;
}

export const get = <T>(path: string, data?: Record<string, unknown>, opts?: RequestOptions) => request<T>('GET', path, data, opts);
export const post = <T>(path: string, data?: Record<string, unknown>, opts?: RequestOptions) => request<T>('POST', path, data, opts);


/** A fresh key for one user intent. */
export function newIdempotencyKey(): string {
  // crypto.randomUUID exists only on secure origins; a phone on http://192.168.x.x has getRandomValues.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A file the API makes for the signed-in member (a receipt's PDF): fetched with the session's token, which
 *  a plain link cannot send, and saved under `filename`. A refusal comes back as the usual envelope. */
export async function downloadFile(path: string, data: Record<string, unknown>, filename: string): Promise<ApiResult<null>> {
  const query = new URLSearchParams();
  for (const [k, val] of Object.entries(common('GET', data))) query.set(k, String(val));
  try {
    const res = await fetch(`${baseURL}${path}?${query.toString()}`, { headers: headers({}), credentials: 'include', cache: 'no-store' });
    if (!(res.headers.get('content-type') ?? '').includes('application/json') && res.ok) {
      const url = URL.createObjectURL(await res.blob());
      const a = Object.assign(document.createElement('a'), { href: url, download: filename });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return { code: 0, msg: '', data: null, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
    }
    return normalise<null>(await res.json()) ?? { code: 1, msg: errorMessage('network_error', wireLang()), data: null, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
  } catch {
    return { code: 1, msg: errorMessage(isOffline() ? 'offline' : 'network_error', wireLang()), data: null, wait: ENVELOPE_DEFAULT_WAIT, time: '' };
  }
}
