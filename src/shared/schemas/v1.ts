import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { beneficiarySchema, reasonSchema } from './retire';

// The integrators' API at /v1 (docs/product.md#integrators): its requests and answers, written once for the
// server's validation, its OpenAPI document (/v1/openapi.json) and the typed client generated from it.
// Money integer cents (SGD), quantities whole tons, times epoch milliseconds. Every answer says its `mode`:
// what a test key sees is its account's sandbox, never a live row.

const m = (key: ErrorKey) => key;
const int = () => v.pipe(v.number(), v.integer());
const ms = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what} (epoch milliseconds)`));
const cents = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what} in cents (SGD)`));
const modeField = () => v.pipe(v.picklist(['test', 'live']), v.description('test: the sandbox of a test key; live: real money'));

// Safe integers: a larger JSON number is no bigint to PostgreSQL.
const positiveId = v.pipe(v.number(m('invalid_request')), v.safeInteger(m('invalid_request')), v.minValue(1, m('invalid_request')));
const tons = v.pipe(v.number(m('invalid_number')), v.integer(m('invalid_number')), v.minValue(1, m('invalid_number')), v.maxValue(1_000_000_000, m('invalid_number')));

/** GET /v1/projects. */
export const v1ProjectListQuery = v.object({
  limit: v.optional(v.pipe(v.string(m('invalid_request')), v.regex(/^\d{1,3}$/, m('invalid_request')), v.transform(Number), v.minValue(1, m('invalid_request')), v.maxValue(100, m('invalid_request'))), '20'),
  cursor: v.optional(v.pipe(v.string(m('invalid_request')), v.regex(/^\d{1,15}$/, m('invalid_request')), v.transform(Number)), undefined),
  status: v.optional(v.picklist(['in_progress', 'presale', 'closed'], m('invalid_request')), undefined),
  type: v.optional(v.pipe(v.string(m('invalid_request')), v.maxLength(40, m('invalid_request'))), undefined),
  icc_eligible: v.optional(v.picklist(['true', 'false'], m('invalid_request')), undefined),
});

/** GET /v1/orders and /v1/retirements. */
export const v1ListQuery = v.object({
  limit: v1ProjectListQuery.entries.limit,
  cursor: v1ProjectListQuery.entries.cursor,
});

export const v1QuoteSchema = v.object({ project_id: positiveId, tons });
export const v1OrderSchema = v.object({
  project_id: positiveId,
  tons,
  /** A quote from POST /v1/quotes: the order is refused when it expired or the price moved since. */
  quote_id: v.optional(v.pipe(v.string(m('invalid_request')), v.maxLength(400, m('invalid_request'))), undefined),
});
export const v1RetirementSchema = v.object({
  project_id: positiveId,
  tons,
  beneficiary: beneficiarySchema,
  reason: reasonSchema,
  /** private: the public certificate shows "a Canopy customer" and no reason. */
  privacy: v.optional(v.picklist(['public', 'private'], m('invalid_request')), 'public'),
});
export const v1EmptySchema = v.object({});

export const v1ProjectSchema = v.strictObject({
  id: int(),
  object: v.literal('project'),
  name: v.string(),
  name_cn: v.string(),
  type: v.string(),
  status: v.string(),
  country: v.string(),
  registry: v.string(),
  registry_id: v.string(),
  standard: v.string(),
  vintage: int(),
  unit_price: cents('Price per ton'),
  currency: v.literal('SGD'),
  remaining_tons: int(),
  min_tons: int(),
  max_tons: int(),
  icc_verdict: v.pipe(v.picklist(['eligible', 'not_eligible', 'unknown']), v.description("Singapore's International Carbon Credit rules, judged now")),
});

export const v1ProjectListSchema = v.strictObject({
  object: v.literal('list'),
  data: v.array(v1ProjectSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null on the last')),
});

export const v1QuoteAnswerSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('Pass as quote_id to POST /v1/orders before expires_at')),
  object: v.literal('quote'),
  mode: modeField(),
  project_id: int(),
  tons: int(),
  unit_price: cents('Price per ton'),
  total: cents('Price of the tons'),
  currency: v.literal('SGD'),
  expires_at: ms('When the quote ends'),
});

export const v1OrderAnswerSchema = v.strictObject({
  id: v.string(),
  object: v.literal('order'),
  mode: modeField(),
  status: v.pipe(v.string(), v.description('completed when the credits are in the account; in_progress while a live order waits for its cycle end')),
  project_id: int(),
  tons: int(),
  unit_price: cents('Price per ton'),
  total: cents('Total paid'),
  currency: v.literal('SGD'),
  created_at: ms('When it was placed'),
});

export const v1OrderListSchema = v.strictObject({ object: v.literal('list'), data: v.array(v1OrderAnswerSchema), next_cursor: v.nullable(v.string()) });

export const v1RetirementAnswerSchema = v.strictObject({
  id: v.string(),
  object: v.literal('retirement'),
  mode: modeField(),
  test: v.pipe(v.boolean(), v.description('true: a sandbox retirement, marked TEST, never public, never counted')),
  project_id: int(),
  tons: int(),
  beneficiary: v.string(),
  reason: v.string(),
  privacy: v.picklist(['public', 'private']),
  certificate_url: v.pipe(v.nullable(v.string()), v.description('The public certificate; null for a test retirement')),
  created_at: ms('When the credits were retired'),
});

export const v1BalanceSchema = v.strictObject({
  object: v.literal('balance'),
  mode: modeField(),
  available: cents('Spendable money'),
  credits: v.pipe(int(), v.description('Tons held')),
  currency: v.literal('SGD'),
});

/** An error: RFC 9457 problem details, with the catalogue's code. */
export const v1ProblemSchema = v.strictObject({
  type: v.string(),
  title: v.string(),
  status: int(),
  detail: v.string(),
  code: v.pipe(int(), v.description('The error catalogue code (x-error-catalogue)')),
  field: v.optional(v.string()),
});

export type V1Project = v.InferOutput<typeof v1ProjectSchema>;
export type V1Order = v.InferOutput<typeof v1OrderAnswerSchema>;
export type V1Retirement = v.InferOutput<typeof v1RetirementAnswerSchema>;
