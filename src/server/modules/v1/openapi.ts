import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { documentPerConfig } from '../../lib/openapi-endpoint';
import { ERRORS, type ErrorKey } from '../../../shared/errors';
import {
  v1BalanceSchema,
  v1EmptySchema,
  v1ListQuery,
  v1OrderAnswerSchema,
  v1OrderListSchema,
  v1OrderSchema,
  v1ProblemSchema,
  v1ProjectListQuery,
  v1ProjectListSchema,
  v1ProjectSchema,
  v1QuoteAnswerSchema,
  v1QuoteSchema,
  v1RetirementAnswerSchema,
  v1RetirementSchema,
} from '../../../shared/schemas/v1';
import { V1_RATE_LIMIT, V1_RATE_WINDOW_SEC } from './limits';

// The integrators' OpenAPI 3.1 document (/v1/openapi.json), generated from the same valibot schemas the
// /v1 routes validate with and answer (src/shared/schemas/v1.ts). The typed client (clients/typescript)
// is generated from it; `npm run lint:openapi` lints it with the app's.

type Json = Record<string, unknown>;

interface V1Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  scope: 'read' | 'buy' | 'retire';
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  answer: string;
  created?: boolean;
  errors: ErrorKey[];
}

const OPERATIONS: V1Operation[] = [
  { method: 'get', path: '/projects', operationId: 'listProjects', tag: 'Projects', summary: 'Projects, a page at a time (cursor), filtered by status, type and Singapore carbon-tax eligibility', scope: 'read', query: v1ProjectListQuery, answer: 'ProjectList', errors: [] },
  { method: 'get', path: '/projects/{id}', operationId: 'getProject', tag: 'Projects', summary: 'One project', scope: 'read', answer: 'Project', errors: ['api_not_found'] },
  { method: 'post', path: '/quotes', operationId: 'createQuote', tag: 'Orders', summary: 'The price of N tons of a project, held for a few minutes', scope: 'read', body: v1QuoteSchema, answer: 'Quote', created: true, errors: ['api_not_found'] },
  {
    method: 'post',
    path: '/orders',
    operationId: 'createOrder',
    tag: 'Orders',
    summary: 'Buy tons of a project (test keys: in the sandbox, complete at once)',
    scope: 'buy',
    body: v1OrderSchema,
    answer: 'Order',
    created: true,
    errors: ['api_key_trade_forbidden', 'api_not_found', 'api_quote_expired', 'insufficient_balance', 'insufficient_remaining', 'below_min_tons', 'above_max_tons', 'monthly_limit', 'total_limit', 'project_not_started', 'project_ended', 'project_full', 'grade_not_met', 'account_locked', 'risk_forbidden'],
  },
  { method: 'get', path: '/orders', operationId: 'listOrders', tag: 'Orders', summary: "The key's mode's orders, newest first (cursor)", scope: 'read', query: v1ListQuery, answer: 'OrderList', errors: [] },
  { method: 'get', path: '/orders/{id}', operationId: 'getOrder', tag: 'Orders', summary: 'One order', scope: 'read', answer: 'Order', errors: ['api_not_found'] },
  {
    method: 'post',
    path: '/retirements',
    operationId: 'createRetirement',
    tag: 'Retirements',
    summary: 'Retire tons for a beneficiary (test keys: marked TEST, never public)',
    scope: 'retire',
    body: v1RetirementSchema,
    answer: 'Retirement',
    created: true,
    errors: ['api_key_trade_forbidden', 'retire_insufficient_credits', 'retire_not_retirable', 'retire_pending_sale', 'api_approval_required', 'account_locked', 'risk_forbidden'],
  },
  { method: 'get', path: '/retirements/{id}', operationId: 'getRetirement', tag: 'Retirements', summary: 'One retirement, with its certificate URL', scope: 'read', answer: 'Retirement', errors: ['api_not_found'] },
  { method: 'get', path: '/balance', operationId: 'getBalance', tag: 'Balance', summary: "The key's mode's money and credits", scope: 'read', answer: 'Balance', errors: [] },
  { method: 'post', path: '/sandbox/topup', operationId: 'topupSandbox', tag: 'Balance', summary: 'S$10,000.00 more play money (test keys only)', scope: 'buy', body: v1EmptySchema, answer: 'Balance', created: true, errors: ['api_test_only'] },
];

const TAGS: Record<string, string> = {
  Projects: 'The marketplace: projects and their prices.',
  Orders: 'Quotes and buys by the ton.',
  Retirements: 'Retiring credits for a beneficiary, with a public certificate (live keys).',
  Balance: "The key's mode's balance; the sandbox's play money.",
};

const SCHEMAS: Record<string, v.GenericSchema> = {
  Project: v1ProjectSchema,
  ProjectList: v1ProjectListSchema,
  Quote: v1QuoteAnswerSchema,
  Order: v1OrderAnswerSchema,
  OrderList: v1OrderListSchema,
  Retirement: v1RetirementAnswerSchema,
  Balance: v1BalanceSchema,
  Problem: v1ProblemSchema,
};

const REF = '#/components/schemas/';
const requestConfig: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' };

function strip(schema: unknown): Json {
  const { $schema: _drop, ...rest } = schema as Json;
  return rest;
}

const rateHeaders = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
};

function operationOf(o: V1Operation): Json {
  const parameters: Json[] = [{ $ref: '#/components/parameters/AcceptLanguage' }];
  for (const name of o.path.match(/\{(\w+)\}/g) ?? []) {
    const n = name.slice(1, -1);
    parameters.push({ name: n, in: 'path', required: true, schema: { type: 'string' }, description: `The ${n}` });
  }
  if (o.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (o.query) {
    const q = strip(toJsonSchema(o.query, requestConfig)) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema, description: `Filter or page: ${name}` });
  }
  const codes = [...new Set<ErrorKey>(['api_key_invalid', 'api_key_scope', 'too_many_requests', ...(o.method === 'post' ? (['api_idempotency_required', 'idempotency_mismatch', 'idempotency_in_progress', 'invalid_request'] as ErrorKey[]) : []), ...o.errors])];
  const problem = { description: 'Refused: RFC 9457 problem details (code: the error catalogue)', headers: rateHeaders, content: { 'application/problem+json': { schema: { $ref: `${REF}Problem` } } } };
  return {
    operationId: o.operationId,
    tags: [o.tag],
    summary: o.summary,
    description: `Needs the \`${o.scope}\` scope.`,
    security: [{ apiKey: [] }],
    parameters,
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: strip(toJsonSchema(o.body, requestConfig)) } } } } : {}),
    responses: {
      [o.created ? '201' : '200']: { description: o.created ? 'Made (200 with Idempotent-Replayed: true on a replay)' : 'OK', headers: rateHeaders, content: { 'application/json': { schema: { $ref: `${REF}${o.answer}` } } } },
      '4XX': problem,
      '5XX': { description: 'Server error', content: { 'application/problem+json': { schema: { $ref: `${REF}Problem` } } } },
    },
    'x-error-codes': codes.map((k) => ERRORS[k].code).sort((a, b) => a - b),
  };
}

function buildDocument(publicUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const o of OPERATIONS) (paths[o.path] ??= {})[o.method] = operationOf(o);
  const answers = toJsonSchema(v.object(SCHEMAS), { target: 'draft-2020-12', errorMode: 'throw' }) as { properties: Record<string, Json> };
  return {
    openapi: '3.1.0',
    info: {
      title: "Canopy integrators' API",
      version: '1',
      summary: 'Buy and retire carbon credits per transaction, test and live.',
      description: 'Bearer API keys (ck_test_… acts on the sandbox, ck_live_… on real money), an Idempotency-Key on every POST, problem details on every refusal.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Canopy' },
      contact: { name: 'Canopy', url: publicUrl },
    },
    servers: [{ url: `${publicUrl}/v1`, description: 'This instance' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the Developers screen: ck_test_… or ck_live_…' } },
      parameters: {
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: true, description: 'One per intent, 8 to 100 of A-Z a-z 0-9 - _; a retry with the same key and body gets the first answer', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,100}$' } },
        AcceptLanguage: { name: 'Accept-Language', in: 'header', required: false, description: 'en or zh: the language of problem details', schema: { type: 'string' } },
      },
      headers: {
        RateLimit: { description: `The key's budget left: "per-key";r=<requests left>;t=<seconds to reset>`, schema: { type: 'string' } },
        RateLimitPolicy: { description: `"per-key";q=${V1_RATE_LIMIT};w=${V1_RATE_WINDOW_SEC}`, schema: { type: 'string' } },
      },
      schemas: Object.fromEntries(Object.entries(answers.properties).map(([k, s]) => [k, s])),
    },
    'x-error-catalogue': Object.entries(ERRORS).map(([key, e]) => ({ code: e.code, key, en: e.en, cn: e.cn })),
  };
}

/** The integrators' document for this configuration, built once per configuration and URL. */
export const v1Document = documentPerConfig(buildDocument);
