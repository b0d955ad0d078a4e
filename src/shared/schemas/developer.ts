import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { epochMs, idSchema, int } from './common';

// The integrators' API keys (docs/product.md#integrators): what the Developers screen and
// POST/GET /h5/api/api/developer/keys take and answer. The secret is answered once, at creation or
// rotation; afterwards only its prefix.

const m = (key: ErrorKey) => key;

export const API_KEY_MODES = ['test', 'live'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];
export const API_KEY_SCOPES = ['read', 'buy', 'retire', 'webhooks'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** Active keys an account may keep at once. */
export const API_KEYS_MAX = 20;
/** The longest overlap a rotation gives the old key, in hours (a week). */
export const ROTATE_OVERLAP_MAX_HOURS = 168;
/** The play money a sandbox starts with and each top-up adds: S$10,000.00. */
export const SANDBOX_FUNDING_CENTS = 1_000_000;

const paymentPassword = v.pipe(v.string(m('required')), v.nonEmpty(m('required')), v.maxLength(200, m('too_long')));

/** POST developer/keys. */
export const apiKeyCreateSchema = v.object({
  name: v.pipe(v.string(m('required')), v.trim(), v.nonEmpty(m('required')), v.maxLength(60, m('too_long'))),
  mode: v.picklist(API_KEY_MODES, m('invalid_request')),
  scopes: v.pipe(v.array(v.picklist(API_KEY_SCOPES, m('invalid_request')), m('invalid_request')), v.minLength(1, m('required')), v.maxLength(4, m('invalid_request'))),
  /** When the key stops working (epoch ms); absent or null: until revoked. */
  expires_at: v.optional(v.nullable(v.pipe(v.number(m('invalid_request')), v.safeInteger(m('invalid_request')))), null),
  password: paymentPassword,
});
export type ApiKeyCreateInput = v.InferOutput<typeof apiKeyCreateSchema>;

/** POST developer/keys/revoke. */
export const apiKeyRevokeSchema = v.object({ id: idSchema });

/** POST developer/keys/rotate: a new key with the same name, mode and scopes; the old one ends after
 *  `overlap_hours` (0: at once). */
export const apiKeyRotateSchema = v.object({
  id: idSchema,
  overlap_hours: v.optional(v.pipe(v.number(m('invalid_request')), v.integer(m('invalid_request')), v.minValue(0, m('invalid_request')), v.maxValue(ROTATE_OVERLAP_MAX_HOURS, m('invalid_request'))), 24),
  password: paymentPassword,
});

/** POST developer/sandbox/topup: S$10,000.00 more play money in the account's sandbox. */
export const sandboxTopupSchema = v.object({});

/** The answer of a created or rotated key: the secret `key` is shown this once. */
export const apiKeyCreatedSchema = v.strictObject({
  id: int(),
  prefix: v.string(),
  mode: v.picklist(API_KEY_MODES),
  key: v.pipe(v.string(), v.description('The secret: ck_test_... or ck_live_...; never shown again')),
});

export const apiKeySchema = v.strictObject({
  id: int(),
  name: v.string(),
  mode: v.picklist(API_KEY_MODES),
  prefix: v.string(),
  scopes: v.array(v.picklist(API_KEY_SCOPES)),
  status: v.picklist(['active', 'revoked', 'expired']),
  created_by: v.pipe(v.string(), v.description("The creator's email")),
  created_at: epochMs(),
  expires_at: v.nullable(epochMs()),
  revoked_at: v.nullable(epochMs()),
  last_used_at: v.nullable(epochMs()),
  last_used_ip: v.string(),
});
export type ApiKey = v.InferOutput<typeof apiKeySchema>;

export const apiKeyListSchema = v.strictObject({
  list: v.array(apiKeySchema),
  /** The sandbox's play balance (cents) and credits (tons). */
  sandbox: v.strictObject({ available: int(), credits: int() }),
});

export const sandboxBalanceSchema = v.strictObject({ available: int(), credits: int() });
