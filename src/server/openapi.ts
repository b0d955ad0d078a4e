import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { API_BASE, PATHS } from '../shared/api';
import { ERRORS, isErrorKey, type ErrorKey } from '../shared/errors';
import { baseConfigSchema, loginInfoSchema } from '../shared/schemas/auth';
import {
  bannerPageSchema,
  bannerSchema,
  contentPageSchema,
  faqItemSchema,
  faqPageSchema,
  newsItemSchema,
  newsPageSchema,
  projectPageSchema,
  projectSchema,
} from '../shared/schemas/content';
import { avatarAnswerSchema, userInfoSchema, walletBalancesSchema } from '../shared/schemas/user';
import {
  bankCardViewSchema,
  fundLogPageSchema,
  fundLogRowSchema,
  notificationItemSchema,
  profileViewSchema,
  topupPageSchema,
  topupRecordSchema,
  withdrawalPageSchema,
  withdrawalRecordSchema,
} from '../shared/schemas/wallet';
import { creditHoldingSchema, creditMovementSchema, orderCreditsSchema, orderLimitsSchema, orderPageSchema, orderSchema } from '../shared/schemas/order';
import { noticePageSchema, noticeReadResultSchema } from '../shared/schemas/inbox';
import { footprintBreakdownSchema, footprintPageSchema, footprintRecordSchema } from '../shared/schemas/footprint';
import { WALLET_ENDPOINTS } from './modules/wallet/openapi';
import { ORDER_ENDPOINTS } from './modules/order/openapi';
import { FOOTPRINT_ENDPOINTS } from './modules/footprint/openapi';
import { AVATAR_ENDPOINTS } from './modules/avatar/openapi';
import { DOCS_ENDPOINTS } from './modules/docs/openapi';
import { ACCOUNT_ENDPOINTS, MEMBERSHIP_ENDPOINTS, NOTICE_ENDPOINTS, USER_INFO_ENDPOINTS } from './modules/user/openapi';
import { AUTH_ENDPOINTS } from './modules/auth/openapi';
import { PASSKEY_ENDPOINTS, PASSKEY_LOGIN_ENDPOINTS } from './modules/passkey/openapi';
import { PROJECT_ENDPOINTS } from './modules/project/openapi';
import { NEWS_ENDPOINTS } from './modules/news/openapi';
import { CONTENT_ENDPOINTS } from './modules/content/openapi';
import { RETIRE_ENDPOINTS } from './modules/retire/openapi';
import { ICC_ENDPOINTS } from './modules/icc/openapi';
import { RECEIPT_ENDPOINTS } from './modules/receipt/openapi';
import { receiptPageSchema, receiptSchema } from '../shared/schemas/receipt';
import { OFFSET_ENDPOINTS } from './modules/offset/openapi';
import { offsetPlanPageSchema, offsetPlanSchema } from '../shared/schemas/offset';
import { ORG_ENDPOINTS } from './modules/org/openapi';
import { APPROVAL_ENDPOINTS } from './modules/approval/openapi';
import { DEVELOPER_ENDPOINTS } from './modules/developer/openapi';
import { WEBHOOK_ENDPOINTS } from './modules/webhook/openapi';
import { documentPerConfig, type Endpoint } from './lib/openapi-endpoint';

// The OpenAPI document, generated from the same valibot schemas the server validates requests with and
// the shared answer schemas its types are inferred from (docs/decisions/0012-api-contract.md). Each
// module hands its entries up (modules/<area>/openapi.ts); the Endpoint type sits in a leaf so they never
// import this.

export const ENDPOINTS: Endpoint[] = [
  ...AUTH_ENDPOINTS,
  ...PASSKEY_LOGIN_ENDPOINTS,
  ...USER_INFO_ENDPOINTS,
  ...PROJECT_ENDPOINTS,
  ...NEWS_ENDPOINTS,
  ...CONTENT_ENDPOINTS,
  { method: 'get', path: PATHS.openapi, operationId: 'openapiDocument', tag: 'Reference', summary: 'This document', auth: 'none', bare: ['application/json'], gives: 'OpenAPI 3.1 JSON (not enveloped)' },
  ...ACCOUNT_ENDPOINTS,
  ...PASSKEY_ENDPOINTS,
  ...WALLET_ENDPOINTS,
  ...ORDER_ENDPOINTS,
  ...FOOTPRINT_ENDPOINTS,
  ...NOTICE_ENDPOINTS,
  ...AVATAR_ENDPOINTS,
  ...MEMBERSHIP_ENDPOINTS,
  ...RETIRE_ENDPOINTS,
  ...ICC_ENDPOINTS,
  ...RECEIPT_ENDPOINTS,
  ...OFFSET_ENDPOINTS,
  ...ORG_ENDPOINTS,
  ...APPROVAL_ENDPOINTS,
  ...DEVELOPER_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
  ...DOCS_ENDPOINTS,
];

/** Answer schemas with a name of their own in components.schemas (referenced wherever they occur). An
 *  endpoint can name another with `answerName`. */
const NAMED_SCHEMAS: Record<string, v.GenericSchema> = {
  BaseConfig: baseConfigSchema,
  LoginInfo: loginInfoSchema,
  UserInfo: userInfoSchema,
  WalletBalances: walletBalancesSchema,
  AvatarAnswer: avatarAnswerSchema,
  Project: projectSchema,
  ProjectPage: projectPageSchema,
  NewsItem: newsItemSchema,
  NewsPage: newsPageSchema,
  FaqItem: faqItemSchema,
  FaqPage: faqPageSchema,
  ContentPage: contentPageSchema,
  Banner: bannerSchema,
  BannerPage: bannerPageSchema,
  ProfileView: profileViewSchema,
  BankCard: bankCardViewSchema,
  TopupRecord: topupRecordSchema,
  TopupPage: topupPageSchema,
  WithdrawalRecord: withdrawalRecordSchema,
  WithdrawalPage: withdrawalPageSchema,
  FundLogRow: fundLogRowSchema,
  FundLogPage: fundLogPageSchema,
  Order: orderSchema,
  OrderPage: orderPageSchema,
  CreditHolding: creditHoldingSchema,
  CreditMovement: creditMovementSchema,
  OrderCredits: orderCreditsSchema,
  OrderLimits: orderLimitsSchema,
  NotificationItem: notificationItemSchema,
  NoticePage: noticePageSchema,
  NoticeReadResult: noticeReadResultSchema,
  FootprintBreakdown: footprintBreakdownSchema,
  FootprintRecord: footprintRecordSchema,
  FootprintPage: footprintPageSchema,
  Receipt: receiptSchema,
  ReceiptPage: receiptPageSchema,
  OffsetPlan: offsetPlanSchema,
  OffsetPlanPage: offsetPlanPageSchema,
};

/** One line per tag in the reference; a tag without a line here gets a generic one. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Developers: "API keys of the integrators' API (/v1, its own document at /v1/openapi.json) and the test mode's play money.",
  Auth: 'Verification codes, registration, login, guest sessions, logout and start-up settings.',
  Account: "The signed-in member's profile, passwords, payout account and avatar.",
  Projects: 'Carbon-credit projects on the marketplace (public).',
  News: 'News items (public).',
  Content: 'FAQ, about/protocol/privacy pages and home banners (public).',
  Wallet: 'Top-ups, withdrawals and fund logs. Money in integer cents (SGD).',
  Orders: 'Buying, pre-sale booking, final payment, selling back; orders, credits and limits.',
  Footprint: 'Saved carbon-footprint results, recomputed by the server.',
  Notifications: "The member's notifications inbox.",
  Receipts: "The account's receipts, one per money event, as data and as PDF.",
  Offsets: 'Monthly offset plans: a buy of the same tons on a day of each month, placed by the server.',
  Organisations: 'Organisations: members, roles, invitations, the context switch and the activity log.',
  Reference: 'This document.',
  Webhooks: "Signed event deliveries (Standard Webhooks) to the account's receivers: endpoints, secrets, pings and the delivery log.",
  'Carbon tax': "Singapore carbon tax: the account's 5% cap per compliance year, evidence packs and their public check.",
};

const COMPONENT_PREFIX = '#/components/schemas/';

/** The OpenAPI path of a PATHS entry: `:name` segments as `{name}`. */
function openApiPath(path: string): string {
  return API_BASE + path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/** A readable camelCase fallback for an entry without an operationId (a test requires real ones). */
function fallbackOperationId(e: Endpoint): string {
  const words = e.path.split(/[^A-Za-z0-9]+/).filter((w) => w && w !== 'api');
  return e.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function strip(schema: JsonSchema): Record<string, unknown> {
  const { $schema: _s, $defs: _d, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** The catalogue keys a request schema can answer with: every message in it that is a catalogue key,
 *  and `required` for an object with a field that must be present. */
function schemaErrorKeys(schema: unknown, out = new Set<ErrorKey>(), seen = new Set<unknown>()): Set<ErrorKey> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return out;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (typeof s.message === 'string' && isErrorKey(s.message)) out.add(s.message);
  if (s.type === 'object' || s.type === 'strict_object') {
    const entries = (s.entries ?? {}) as Record<string, { type?: string }>;
    if (Object.values(entries).some((x) => x.type !== 'optional' && x.type !== 'nullish')) out.add('required');
  }
  for (const key of ['entries', 'pipe', 'wrapped', 'options', 'item', 'rest']) {
    const child = s[key];
    if (Array.isArray(child)) for (const c of child) schemaErrorKeys(c, out, seen);
    else if (child && typeof child === 'object') {
      if (key === 'entries') for (const c of Object.values(child)) schemaErrorKeys(c, out, seen);
      else schemaErrorKeys(child, out, seen);
    }
  }
  return out;
}

/** Every catalogue key an operation can answer with, by code. */
export function operationErrors(e: Endpoint): ErrorKey[] {
  const keys = new Set<ErrorKey>(['server_error']);
  if (e.schema || e.method === 'post') keys.add('invalid_request');
  if (e.schema && e.method === 'post') keys.add('text_malformed');
  if (e.schema) schemaErrorKeys(e.schema, keys);
  if (e.auth === 'session' || e.auth === 'user') keys.add('session_expired');
  if (e.auth === 'user') keys.add('guest_forbidden');
  // A signed-in write acting for an organisation is refused when the member's role does not allow it.
  if (e.auth === 'user' && e.method === 'post') keys.add('org_role_forbidden');
  if (e.idempotent) {
    keys.add('idempotency_mismatch');
    keys.add('idempotency_in_progress');
  }
  if (e.bare && !e.bare.includes('application/json')) keys.add('not_found');
  for (const k of e.errors ?? []) keys.add(k);
  return [...keys].sort((a, b) => ERRORS[a].code - ERRORS[b].code);
}

const errorRef = { $ref: `${COMPONENT_PREFIX}ErrorEnvelope` };
const errorContent = { 'application/json': { schema: errorRef } };
const transportParams = [{ $ref: '#/components/parameters/Lang' }, { $ref: '#/components/parameters/ClientTime' }, { $ref: '#/components/parameters/AppVersion' }];

type Json = Record<string, unknown>;

// Transforms (trim, lowercase, string-to-number) have no JSON Schema form: requests are described as
// the client sends them.
const requestConfig: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' };
const requestJson = (schema: v.GenericSchema) => strip(toJsonSchema(schema, requestConfig));

/** Every answer in one conversion (the named definitions are converted once, not once per answer): the
 *  data schema of each endpoint by index, and the definitions that become components.schemas. */
function answerSchemas(endpoints: readonly Endpoint[]): { answerJson: (i: number) => Json; components: Json } {
  const named: Record<string, v.GenericSchema> = { ...NAMED_SCHEMAS };
  for (const e of endpoints) if (e.answer && e.answerName && !Object.values(named).includes(e.answer)) named[e.answerName] = e.answer;
  const answerConfig: ConversionConfig = { target: 'draft-2020-12', errorMode: 'throw', definitions: named, overrideRef: ({ referenceId }) => COMPONENT_PREFIX + referenceId };
  const answers = toJsonSchema(v.object(Object.fromEntries(endpoints.map((e, i) => [String(i), e.answer ?? v.unknown()]))), answerConfig) as {
    properties: Record<string, Json>;
    $defs?: Json;
  };
  return { answerJson: (i) => answers.properties[String(i)]!, components: { ...(answers.$defs ?? {}) } };
}

/** Path parameters, the transport's query parameters, the Idempotency-Key, then a GET's own query. */
function parametersOf(e: Endpoint, pathParams: readonly string[]): unknown[] {
  const parameters: unknown[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: `The ${name}` }));
  if (!e.bare && !e.upload) parameters.push(...(e.method === 'get' ? transportParams : [transportParams[0]]));
  if (e.upload) parameters.push(transportParams[0]);
  if (e.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (e.method === 'get' && e.schema) {
    const query = requestJson(e.schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: (query.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  return parameters;
}

/** A POST's body: raw media for an upload, else the JSON of its schema. */
function requestBodyOf(e: Endpoint): Json | undefined {
  if (e.method !== 'post') return undefined;
  if (e.upload) return { required: true, content: Object.fromEntries(e.upload.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) };
  if (!e.schema) return undefined;
  const body = requestJson(e.schema) as { required?: string[] };
  return { required: (body.required ?? []).length > 0, content: { 'application/json': { schema: body } } };
}

/** An answer outside the envelope: a file (with 304/404 when it is addressed by a path parameter) or a
 *  bare JSON document. */
function bareResponses(e: Endpoint & { bare: string[] }, hasPathParams: boolean): Json {
  if (e.bare.includes('application/json')) {
    return {
      '200': { description: e.gives, content: { 'application/json': { schema: { type: 'object' } } } },
      '4XX': { description: 'Refused (the error envelope)', content: errorContent },
    };
  }
  return {
    '200': { description: e.gives, content: Object.fromEntries(e.bare.map((t) => [t, { schema: { type: 'string', ...(t.startsWith('text/') ? {} : { format: 'binary' }) } }])) },
    ...(hasPathParams ? { '304': { description: 'Not modified (If-None-Match)' }, '404': { description: 'No such file (the error envelope)', content: errorContent } } : {}),
    '4XX': { description: 'Refused (the error envelope)', content: errorContent },
  };
}

/** The envelope's answers: success with `data`, or a refusal (both HTTP 200), and the transport's errors. */
function envelopeResponses(data: Json): Json {
  const success = {
    type: 'object',
    additionalProperties: false,
    // time is absent from public answers kept by the response cache (the same bytes for everyone).
    required: ['code', 'msg', 'data', 'wait'],
    properties: {
      code: { const: 0 },
      msg: { type: 'string' },
      data,
      wait: { type: 'integer' },
      time: { type: 'integer', description: 'Server time, epoch milliseconds (absent from cached public answers)' },
    },
  };
  return {
    '200': {
      description: `The envelope: on success code 0 and data; a refusal is also HTTP 200, with a catalogue code (listed above) and msg in the request's language (code < 0: the session is invalid, log in again).`,
      content: { 'application/json': { schema: { anyOf: [success, errorRef] } } },
    },
    '4XX': {
      description: '413: the body is too large; 429: throttled (Retry-After says when to retry); 404: no such path. The error envelope.',
      content: errorContent,
    },
    '5XX': {
      description:
        'server_error (code 3): something went wrong on the server; service_unavailable (code 5, HTTP 503 with Retry-After): the database is briefly away, retry. The error envelope.',
      content: errorContent,
    },
  };
}

/** One operation of the document; `data` is its answer's schema (the envelope's data). */
function operationOf(e: Endpoint, data: Json): Json {
  const errorList = operationErrors(e).map((k) => ({ code: ERRORS[k].code, key: k, message: ERRORS[k].en }));
  const refusals = `Refusals (the envelope's code and its English msg):\n\n${errorList.map((x) => `- ${x.code} \`${x.key}\`: ${x.message}`).join('\n')}`;
  const pathParams = [...e.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  const op: Json = {
    operationId: e.operationId ?? fallbackOperationId(e),
    tags: [e.tag ?? 'Other'],
    summary: e.summary,
    description: e.bare ? `Answers: ${e.gives}.` : `Answers: ${e.gives}.\n\n${refusals}`,
    security: e.auth === 'session' || e.auth === 'user' ? [{ token: [] }] : [],
  };
  if (!e.bare) op['x-error-codes'] = errorList;
  const requestBody = requestBodyOf(e);
  if (requestBody) op.requestBody = requestBody;
  op.parameters = parametersOf(e, pathParams);
  op.responses = e.bare ? bareResponses({ ...e, bare: e.bare }, pathParams.length > 0) : envelopeResponses(data);
  return op;
}

/** What every document has besides its operations: the security scheme, the transport's parameters and
 *  the error envelope. */
function staticComponents(): { securitySchemes: Json; parameters: Json; errorEnvelope: Json } {
  return {
    securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The token of login, register or visitor' } },
    parameters: {
      Lang: { name: 'lang', in: 'query', required: false, schema: { type: 'string', enum: ['en', 'cn'] }, description: 'Language of msg (default en)' },
      ClientTime: { name: 't', in: 'query', required: false, schema: { type: 'integer' }, description: 'Client timestamp in ms' },
      AppVersion: { name: 'v', in: 'query', required: false, schema: { type: 'string' }, description: 'App version' },
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 200 },
        description: 'One key per intent: a retry with the same key and body gets the first answer again and has no second effect.',
      },
    },
    errorEnvelope: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'msg', 'data'],
      description: 'A refusal: code is a catalogue code (x-error-catalogue), never 0; code < 0 means the session is invalid.',
      properties: {
        code: { type: 'integer', not: { const: 0 } },
        msg: { type: 'string' },
        data: { description: 'null, or details such as {field} naming the field concerned' },
        wait: { type: 'integer' },
        time: { type: 'integer' },
      },
    },
  };
}

function info(publicUrl: string): Json {
  return {
    title: 'Canopy API',
    version: '1.0.0',
    description:
      'Carbon-credit marketplace API. Money in integer cents (SGD), quantities in whole tons, times as ISO 8601 SGT with an epoch-ms twin. Every answer under /h5/api is the envelope {code, msg, data, wait, time}; code 0 is success.',
    contact: { name: 'Canopy', url: publicUrl },
    license: { name: 'Proprietary', url: `${publicUrl}/pages/content/index?slug=protocol` },
  };
}

function buildDocument(publicUrl: string): Json {
  const { answerJson, components } = answerSchemas(ENDPOINTS);
  const paths: Record<string, Json> = {};
  for (const [i, e] of ENDPOINTS.entries()) (paths[openApiPath(e.path)] ??= {})[e.method] = operationOf(e, e.answer ? answerJson(i) : {});
  const tags = [...new Set(ENDPOINTS.map((e) => e.tag ?? 'Other'))].sort();
  const { securitySchemes, parameters, errorEnvelope } = staticComponents();
  return {
    openapi: '3.1.0',
    info: info(publicUrl),
    servers: [{ url: publicUrl, description: 'This instance (PUBLIC_URL)' }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations.` })),
    paths,
    components: { securitySchemes, parameters, schemas: { ErrorEnvelope: errorEnvelope, ...components } },
    'x-error-catalogue': Object.entries(ERRORS).map(([key, e]) => ({ code: e.code, key, en: e.en, cn: e.cn })),
  };
}

/** The document for this configuration: `servers` is its PUBLIC_URL (server.ts fills it in at start when
 *  unset). Built once per configuration and URL. */
export const openApiDocument = documentPerConfig(buildDocument);
