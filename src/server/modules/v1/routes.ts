import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type * as v from 'valibot';
import type { AppEnv, Deps } from '../../env';
import { AppError, clientIp, parse, strictBody } from '../../lib/http';
import { answerAs, idempotent } from '../../lib/idempotency';
import { isConnectionError } from '../../db/errors';
import { ERRORS, errorMessage, type ErrorKey, type Lang } from '../../../shared/errors';
import type { ApiKeyScope } from '../../../shared/schemas/developer';
import { v1EmptySchema, v1ListQuery, v1OrderSchema, v1ProjectListQuery, v1QuoteSchema, v1RetirementSchema } from '../../../shared/schemas/v1';
import { findKey, topupSandbox, tradesLive } from '../developer/keys';
import { balanceOf, getOrder, getProject, getRetirement, listOrders, listProjects, placeOrder, quote, retireCredits, type KeyCaller } from './service';
import { v1Document } from './openapi';
import { V1_RATE_LIMIT, V1_RATE_WINDOW_SEC } from './limits';
import { v1DocsInit, v1DocsPage } from './docs';

// The integrators' API at /v1 (docs/product.md#integrators, docs/decisions/0043-integrators-api.md): bearer
// API keys, HTTP status codes, RFC 9457 problem details in the language of Accept-Language, an
// Idempotency-Key on every POST (scoped to the key), and a request budget per key announced with the
// IETF RateLimit and RateLimit-Policy headers. Session tokens never open it (they are not keys).

type V1Env = AppEnv;

/** The key of each request, found by keyAuth (the app's context type has no place for it). */
const callers = new WeakMap<Request, KeyCaller>();
function callerOf(c: Context<V1Env>): KeyCaller {
  const caller = callers.get(c.req.raw);
  if (!caller) throw new AppError('api_key_invalid');
  return caller;
}

const BODY_MAX = 16 * 1024;

/** The HTTP status of a refusal: the session and key 401, roles and scopes 403, unknown things 404, a key
 *  reused with another body or still running 409, throttles 429, malformed input 400, and every business
 *  rule of the catalogue (balance, limits, supply) 422. */
const STATUS: Partial<Record<ErrorKey, number>> = {
  api_key_invalid: 401,
  session_expired: 401,
  guest_forbidden: 401,
  api_key_scope: 403,
  api_key_trade_forbidden: 403,
  org_role_forbidden: 403,
  risk_forbidden: 403,
  account_locked: 403,
  api_not_found: 404,
  not_found: 404,
  idempotency_mismatch: 409,
  idempotency_in_progress: 409,
  too_many_requests: 429,
  invalid_request: 400,
  required: 400,
  invalid_number: 400,
  too_long: 400,
  text_malformed: 400,
  api_idempotency_required: 400,
  server_error: 500,
  service_unavailable: 503,
};
const statusOf = (key: ErrorKey) => STATUS[key] ?? 422;

/** Accept-Language: Chinese (zh, zh-Hans, zh-CN...) first among the languages asked for reads cn. */
function langOf(c: Context): Lang {
  const header = c.req.header('accept-language') ?? '';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'cn' : 'en';
}

export function problem(c: Context, key: ErrorKey, params?: Parameters<typeof errorMessage>[2], field?: string): Response {
  const lang = langOf(c);
  const status = statusOf(key);
  const body = {
    type: `${new URL(c.req.url).origin}/v1/docs#error-${ERRORS[key].code}`,
    title: errorMessage(key, lang, undefined).replace(/\s*\{[a-z]+\}/g, ''),
    status,
    detail: errorMessage(key, lang, params),
    code: ERRORS[key].code,
    ...(field ? { field } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Content-Language': lang === 'cn' ? 'zh' : 'en', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** A fixed window per key in this instance's memory: each instance holds its own count (a cluster of n
 *  instances allows up to n times the budget). */
function rateLimiter(deps: Deps): MiddlewareHandler<V1Env> {
  const windows = new Map<number, { start: number; used: number }>();
  return async (c, next) => {
    const now = deps.clock.now();
    const id = callerOf(c).key.id;
    let w = windows.get(id);
    if (!w || now - w.start >= V1_RATE_WINDOW_SEC * 1000) {
      w = { start: now, used: 0 };
      windows.set(id, w);
      if (windows.size > 10_000) for (const [k, old] of windows) if (now - old.start >= V1_RATE_WINDOW_SEC * 1000) windows.delete(k);
    }
    w.used++;
    const remaining = Math.max(0, V1_RATE_LIMIT - w.used);
    const reset = Math.max(0, Math.ceil((w.start + V1_RATE_WINDOW_SEC * 1000 - now) / 1000));
    const policy = `"per-key";q=${V1_RATE_LIMIT};w=${V1_RATE_WINDOW_SEC}`;
    const state = `"per-key";r=${remaining};t=${reset}`;
    if (w.used > V1_RATE_LIMIT) {
      const res = problem(c, 'too_many_requests');
      res.headers.set('RateLimit-Policy', policy);
      res.headers.set('RateLimit', state);
      res.headers.set('Retry-After', String(reset));
      return res;
    }
    await next();
    c.res.headers.set('RateLimit-Policy', policy);
    c.res.headers.set('RateLimit', state);
  };
}

/** The key of the request: bearer, a known key, neither revoked nor expired, of an account in use. */
const keyAuth: MiddlewareHandler<V1Env> = async (c, next) => {
  const header = c.req.header('authorization')?.trim() ?? '';
  const secret = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const found = secret ? await findKey(c.get('deps'), secret, clientIp(c)) : null;
  if (!found) {
    const res = problem(c, 'api_key_invalid');
    res.headers.set('WWW-Authenticate', 'Bearer realm="canopy"');
    return res;
  }
  callers.set(c.req.raw, found);
  // An organisation's account: its writes go to its activity log under the key's name, as the member who made it.
  if (found.account.type === 'corporate') c.set('acting', { accountId: found.account.id, memberId: found.key.created_by, apiKey: `${found.key.name} (${found.key.prefix})` });
  await next();
};

function requireScope(c: Context<V1Env>, scope: ApiKeyScope): KeyCaller {
  const caller = callerOf(c);
  if (!caller.key.scopes.includes(scope)) throw new AppError('api_key_scope', { scope });
  // A live buy or retirement spends the account's money or credits: its maker must trade for it now.
  if (!caller.makerTrades && tradesLive(caller.key.mode, [scope])) throw new AppError('api_key_trade_forbidden');
  return caller;
}

function query<S extends v.GenericSchema>(c: Context<V1Env>, schema: S): v.InferOutput<S> {
  return parse(schema, c.req.query());
}

/** A POST: the body parsed, then the app's idempotent write under the key's own key space; its stored
 *  answer (the envelope's data) is answered as the resource, 201 when made, 200 on a replay. */
async function keyedWrite<S extends v.GenericSchema, T>(c: Context<V1Env>, scope: ApiKeyScope, schema: S, run: (caller: KeyCaller, data: v.InferOutput<S>, record: Parameters<Parameters<typeof idempotent>[3]>[0]) => Promise<T>): Promise<Response> {
  const caller = requireScope(c, scope);
  const given = c.req.header('idempotency-key')?.trim() ?? '';
  if (!/^[A-Za-z0-9_-]{8,100}$/.test(given)) throw new AppError('api_idempotency_required');
  const { data, raw } = await strictBody(c, schema);
  const res = await idempotent(c, caller.account.id, raw, (record) => run(caller, data, record), `ak${caller.key.id}:`);
  const envelope = (await res.json()) as { data: unknown };
  const replayed = res.headers.get('Idempotent-Replayed') === 'true';
  // A Response of its own: the envelope's answer set headers on the context (its Content-Length among them)
  // that are not this answer's.
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (replayed) headers['Idempotent-Replayed'] = 'true';
  return new Response(JSON.stringify(envelope.data), { status: replayed ? 200 : 201, headers });
}

export function v1App(deps: Deps): Hono<V1Env> {
  const app = new Hono<V1Env>();
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
  app.get('/openapi.json', (c) => c.json(v1Document(deps.config)));
  app.get('/docs', (c) => v1DocsPage(c));
  app.get('/docs/init.js', (c) => v1DocsInit(c));
  app.use('*', bodyLimit({ maxSize: BODY_MAX, onError: (c) => problem(c, 'invalid_request') }));
  app.use('*', keyAuth);
  app.use('*', rateLimiter(deps));

  app.get('/projects', async (c) => {
    requireScope(c, 'read');
    return c.json(await listProjects(deps.db, query(c, v1ProjectListQuery)));
  });
  app.get('/projects/:id', async (c) => {
    requireScope(c, 'read');
    const id = c.req.param('id');
    if (!/^\d{1,15}$/.test(id)) throw new AppError('api_not_found');
    return c.json(await getProject(deps.db, Number(id)));
  });
  // A quote changes nothing, but its Idempotency-Key replays it as any POST's does (the same quote back).
  app.post('/quotes', (c) => keyedWrite(c, 'read', v1QuoteSchema, (caller, data) => quote(deps, caller, data)));
  app.post('/orders', (c) => keyedWrite(c, 'buy', v1OrderSchema, (caller, data, record) => placeOrder(deps, caller, data, record)));
  app.get('/orders', async (c) => {
    const caller = requireScope(c, 'read');
    return c.json(await listOrders(deps.db, caller, query(c, v1ListQuery)));
  });
  app.get('/orders/:id', async (c) => c.json(await getOrder(deps.db, requireScope(c, 'read'), c.req.param('id'))));
  app.post('/retirements', (c) => keyedWrite(c, 'retire', v1RetirementSchema, (caller, data, record) => retireCredits(deps, caller, data, record)));
  app.get('/retirements/:id', async (c) => c.json(await getRetirement(deps, requireScope(c, 'read'), c.req.param('id'))));
  app.get('/balance', async (c) => c.json(await balanceOf(deps.db, requireScope(c, 'read'))));
  app.post('/sandbox/topup', (c) =>
    keyedWrite(c, 'buy', v1EmptySchema, async (caller, _data, record) => {
      if (caller.key.mode !== 'test') throw new AppError('api_test_only');
      const w = await topupSandbox(deps, caller.account.id, answerAs(record, (r) => ({ object: 'balance', mode: 'test', ...(r as object), currency: 'SGD' })));
      return { object: 'balance' as const, mode: 'test' as const, available: w.available, credits: w.credits, currency: 'SGD' as const };
    }),
  );

  app.notFound((c) => problem(c, 'api_not_found'));
  app.onError((err, c) => {
    if (err instanceof AppError) return problem(c, err.key, err.params, (err.data as { field?: string } | null | undefined)?.field);
    if (isConnectionError(err)) return problem(c, 'service_unavailable');
    deps.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    return problem(c, 'server_error');
  });
  return app;
}
