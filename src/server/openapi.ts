import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { API_BASE, PATHS } from '../shared/api';
import { ERRORS } from '../shared/errors';
import { loginSchema, registerSchema, resetSchema, sendCodeSchema } from '../shared/schemas/auth';
import { idQuery, newsListQuery, pageQuery, projectListQuery } from '../shared/schemas/content';
import { WALLET_ENDPOINTS } from './modules/wallet/openapi';
import { ORDER_ENDPOINTS } from './modules/order/openapi';
import { FOOTPRINT_ENDPOINTS } from './modules/footprint/openapi';
import { NOTICE_ENDPOINTS } from './modules/user/notifications-openapi';
import { AVATAR_ENDPOINTS } from './modules/avatar/openapi';
import type { Endpoint } from './lib/openapi-endpoint';

// The OpenAPI document is built from the same valibot schemas the server validates with. Each module
// hands its entries up (modules/<area>/openapi.ts); the Endpoint type sits in a leaf so they never import this.

export const ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.baseconfig, summary: 'App start-up settings', auth: 'none', gives: 'version, socket_host, currency, server time, limits' },
  { method: 'post', path: PATHS.sendcode, summary: 'Email a 6-digit verification code', schema: sendCodeSchema, auth: 'none', gives: 'null' },
  { method: 'post', path: PATHS.register, summary: 'Register with email and code', schema: registerSchema, auth: 'none', gives: 'login info' },
  { method: 'post', path: PATHS.login, summary: 'Log in', schema: loginSchema, auth: 'none', gives: 'login info (token, mem_id, realname, account, mobile, avatar)' },
  { method: 'post', path: PATHS.visitor, summary: 'A guest session', auth: 'none', gives: 'login info with mem_id 0' },
  { method: 'post', path: PATHS.reset, summary: 'Reset the login password with an emailed code', schema: resetSchema, auth: 'none', gives: 'null' },
  { method: 'post', path: PATHS.logout, summary: 'Revoke this session', auth: 'session', gives: 'null' },
  { method: 'get', path: PATHS.userInfo, summary: 'Profile, grade, credit score, risk, locks and wallet', auth: 'session', gives: 'UserInfo' },
  { method: 'get', path: PATHS.projectLists, summary: 'Projects, paged (by page number, or by cursor: the next_cursor of the page before)', schema: projectListQuery, auth: 'none', gives: '{list, total, page, page_size, next_cursor}' },
  { method: 'get', path: PATHS.projectDetail, summary: 'One project', schema: idQuery, auth: 'none', gives: 'Project' },
  { method: 'get', path: PATHS.newsLists, summary: 'News, newest first (by page number, or by cursor: the next_cursor of the page before)', schema: newsListQuery, auth: 'none', gives: '{list, total, page, page_size, next_cursor}' },
  { method: 'get', path: PATHS.newsDetail, summary: 'One news item', schema: idQuery, auth: 'none', gives: 'NewsItem' },
  { method: 'get', path: PATHS.faqLists, summary: 'Frequently asked questions', auth: 'none', gives: '{list}' },
  { method: 'get', path: PATHS.page, summary: 'About, protocol or privacy page', schema: pageQuery, auth: 'none', gives: 'ContentPage' },
  { method: 'get', path: PATHS.banners, summary: 'Home banners', auth: 'none', gives: '{list}' },
  { method: 'get', path: PATHS.openapi, summary: 'This document', auth: 'none', gives: 'OpenAPI 3.1 JSON (not enveloped)' },
  ...WALLET_ENDPOINTS,
  ...ORDER_ENDPOINTS,
  ...FOOTPRINT_ENDPOINTS,
  ...NOTICE_ENDPOINTS,
  ...AVATAR_ENDPOINTS,
];

function jsonSchema(schema: v.GenericSchema): object {
  // Transforms (trim, lowercase, string-to-number) have no JSON Schema form; the input shape is what matters.
  return toJsonSchema(schema, { errorMode: 'ignore' }) as object;
}

let cached: object | null = null;

export function openApiDocument(): object {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    const params = [
      { name: 'lang', in: 'query', schema: { type: 'string', enum: ['en', 'cn'] }, description: 'Language of msg (default en)' },
      { name: 't', in: 'query', schema: { type: 'integer' }, description: 'Client timestamp in ms' },
      { name: 'v', in: 'query', schema: { type: 'string' }, description: 'App version' },
    ];
    const op: Record<string, unknown> = {
      summary: e.summary,
      security: e.auth === 'none' ? [] : [{ token: [] }],
      responses: {
        '200': {
          description: `Envelope {code, msg, data, wait, time}; data on success: ${e.gives}. code > 0: a catalogue error; code < 0: session invalid.`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
        },
      },
    };
    if (e.method === 'get') {
      op.parameters = [...params, ...(e.schema ? [{ name: 'data', in: 'query', style: 'form', explode: true, schema: jsonSchema(e.schema) }] : [])];
    } else {
      op.parameters = e.method === 'post' ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }] : [];
      op.requestBody = { content: { 'application/json': { schema: e.schema ? jsonSchema(e.schema) : { type: 'object' } } } };
    }
    (paths[API_BASE + e.path] ??= {})[e.method] = op;
  }
  cached = {
    openapi: '3.1.0',
    info: { title: 'Canopy API', version: '1.0.0', description: 'Carbon-credit marketplace API. Money in integer cents (SGD), quantities in whole tons.' },
    paths,
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['code', 'msg', 'data'],
          properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: {}, wait: { type: 'integer' }, time: { type: 'integer' } },
        },
        ErrorCatalogue: {
          type: 'object',
          description: 'Stable error codes with their messages',
          example: Object.fromEntries(Object.entries(ERRORS).map(([k, e]) => [e.code, { key: k, en: e.en, cn: e.cn }])),
        },
      },
    },
  };
  return cached;
}
