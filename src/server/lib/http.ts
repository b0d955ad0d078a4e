import type { Context } from 'hono';
import * as v from 'valibot';
import { ENVELOPE_DEFAULT_WAIT } from '../../shared/constants';
import { ERRORS, errorMessage, isErrorKey, type ErrorKey, type Lang, type MessageParams } from '../../shared/errors';
import { firstIssue } from '../../shared/schemas/common';
import type { AppEnv } from '../app';

/** A business refusal: answered as HTTP 200 with code > 0 (or < 0 for session) from the catalogue. */
export class AppError extends Error {
  constructor(
    public readonly key: ErrorKey,
    public readonly params?: MessageParams,
    public readonly data: unknown = null,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export function langOf(c: Context<AppEnv>): Lang {
  return c.get('lang');
}

export function ok<T>(c: Context<AppEnv>, data: T, msg = 'ok') {
  return c.json({ code: 0, msg, data, wait: ENVELOPE_DEFAULT_WAIT, time: c.get('deps').clock.now() });
}

export function errorBody(key: ErrorKey, lang: Lang, now: number, params?: MessageParams, data: unknown = null) {
  return { code: ERRORS[key].code, msg: errorMessage(key, lang, params), data, wait: ENVELOPE_DEFAULT_WAIT, time: now };
}

// Parameters the client adds to every request (SPEC section 7); not part of any payload.
const TRANSPORT_KEYS = new Set(['lang', 't', 'v']);

/** Query string and body merged: SPEC says GET sends data in the query string, writes send JSON. */
export async function input(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(c.req.query())) if (!TRANSPORT_KEYS.has(k)) out[k] = val;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const type = c.req.header('content-type') ?? '';
    let body: unknown = {};
    try {
      if (type.includes('application/json')) {
        const text = await c.req.text();
        body = text.trim() === '' ? {} : JSON.parse(text);
      } else if (type.includes('form')) {
        body = Object.fromEntries(Object.entries(await c.req.parseBody()).filter(([, x]) => typeof x === 'string'));
      }
    } catch {
      throw new AppError('invalid_request');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('invalid_request');
    for (const [k, val] of Object.entries(body)) if (!TRANSPORT_KEYS.has(k)) out[k] = val;
  }
  return out;
}

/** Validates with a shared schema; the first problem becomes the catalogue error, naming the field. */
export function parse<S extends v.GenericSchema>(schema: S, data: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, data);
  if (result.success) return result.output;
  const issue = firstIssue(result.issues);
  const key = isErrorKey(issue.key) ? issue.key : 'invalid_request';
  throw new AppError(key, issue.max !== undefined ? { n: issue.max } : undefined, issue.field ? { field: issue.field } : null);
}

export async function body<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): Promise<v.InferOutput<S>> {
  return parse(schema, await input(c));
}

/** The caller's address for rate limits. Behind a reverse proxy (TRUST_PROXY=true) the first address
 *  of X-Forwarded-For, otherwise the socket's peer. */
export function clientIp(c: Context<AppEnv>): string {
  if (c.get('deps').config.TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
