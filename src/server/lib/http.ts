import type { Context } from 'hono';
import * as v from 'valibot';
import { ENVELOPE_DEFAULT_WAIT } from '../../shared/constants';
import { ERRORS, errorMessage, isErrorKey, type ErrorKey, type Lang, type MessageParams } from '../../shared/errors';
import { firstIssue } from '../../shared/schemas/common';
import type { AppEnv } from '../env';
import { AppError } from './app-error';
import { addressOf } from './address';

// AppError and the address helpers live in modules of their own, free of the app's types, so
// the hash lanes and throttles use them without importing the HTTP layer (and the app) back.
export { AppError } from './app-error';
export { addressOf, ipKey } from './address';


export function ok<T>(c: Context<AppEnv>, data: T, msg = 'ok') {
  const text = JSON.stringify({ code: 0, msg, data, wait: ENVELOPE_DEFAULT_WAIT, time: c.get('deps').clock.now() });
  // With its length said, hono/compress leaves an answer under its threshold as it is; without, it
  // compresses every answer through a CompressionStream, most of a small GET's time (bench/http.ts).
  return c.body(text, 200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
}

export function errorBody(key: ErrorKey, lang: Lang, now: number, params?: MessageParams, data: unknown = null) {
  return { code: ERRORS[key].code, msg: errorMessage(key, lang, params), data, wait: ENVELOPE_DEFAULT_WAIT, time: now };
}

// Parameters the client adds to every request (docs/product.md#api-conventions); not part of any payload.
const TRANSPORT_KEYS = new Set(['lang', 't', 'v']);

// Keys that could reach an object's prototype chain: never accepted as field names.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses a forbidden key or a string that is not well-formed UTF-16 (a lone surrogate), anywhere in
 *  the value; `field` names the top-level field for the error. */
function assertClean(value: unknown, field: string, depth = 0): void {
  if (depth > 20) throw new AppError('invalid_request', undefined, { field });
  if (typeof value === 'string') {
    // Lone surrogates cannot be stored as UTF-8; NUL is refused by PostgreSQL's text and cuts C strings.
    if (!value.isWellFormed() || value.includes('\u0000')) throw new AppError('text_malformed', undefined, { field });
  } else if (Array.isArray(value)) {
    for (const x of value) assertClean(x, field, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, x] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(k)) throw new AppError('invalid_request', undefined, { field: depth === 0 ? k : field });
      if (!k.isWellFormed() || k.includes('\u0000')) throw new AppError('text_malformed', undefined, { field });
      assertClean(x, depth === 0 ? k : field, depth + 1);
    }
  }
}

const parsedBodies = new WeakMap<object, Promise<unknown>>();

/** A JSON body, read and parsed once per request (the language middleware and the route both ask);
 *  an empty body is `{}`. Rejects on malformed JSON. */
export function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  let parsed = parsedBodies.get(c.req);
  if (!parsed) {
    parsed = c.req.text().then((text) => (text.trim() === '' ? {} : (JSON.parse(text) as unknown)));
    parsedBodies.set(c.req, parsed);
  }
  return parsed;
}

/** Query string and body merged: GET sends data in the query string, writes send JSON
 *  (docs/product.md#api-conventions). The result has no prototype; `__proto__`, `constructor` and `prototype`
 *  keys and ill-formed strings are refused before any handler sees them. */
export async function input(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const query = c.req.query();
  assertClean(query, '');
  for (const [k, val] of Object.entries(query)) if (!TRANSPORT_KEYS.has(k)) out[k] = val;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const type = c.req.header('content-type') ?? '';
    let body: unknown = {};
    try {
      if (type.includes('application/json')) {
        body = await jsonBody(c);
      } else if (type.includes('form')) {
        body = Object.fromEntries(Object.entries(await c.req.parseBody()).filter(([, x]) => typeof x === 'string'));
      }
    } catch {
      throw new AppError('invalid_request');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('invalid_request');
    assertClean(body, '');
    for (const [k, val] of Object.entries(body)) if (!TRANSPORT_KEYS.has(k)) out[k] = val;
  }
  return out;
}

/** The field names an object schema (possibly piped) accepts, or null for other schemas. */
function entriesOf(schema: v.GenericSchema): string[] | null {
  const s = schema as unknown as { entries?: Record<string, unknown>; pipe?: Array<{ entries?: Record<string, unknown> }> };
  const entries = s.entries ?? s.pipe?.[0]?.entries;
  return entries ? Object.keys(entries) : null;
}

/** Like body(), for money and account writes: a field the schema does not know is refused (naming it),
 *  never silently dropped. */
export async function strictBody<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): Promise<{ data: v.InferOutput<S>; raw: Record<string, unknown> }> {
  const raw = await input(c);
  const known = entriesOf(schema);
  if (known) for (const k of Object.keys(raw)) if (!known.includes(k)) throw new AppError('invalid_request', undefined, { field: k });
  return { data: parse(schema, raw), raw };
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

/** The caller's address for rate limits: the socket's peer, or behind TRUST_PROXY=N trusted reverse
 *  proxies the address the outermost of them saw: the Nth X-Forwarded-For entry from the right. Each proxy
 *  appends the address it received the request from, so entries to the left of that are whatever the
 *  client wrote and are never used. */
export function clientIp(c: Context<AppEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return addressOf(env?.incoming?.socket?.remoteAddress ?? 'unknown', c.req.header('x-forwarded-for'), c.get('deps').config.TRUST_PROXY);
}

