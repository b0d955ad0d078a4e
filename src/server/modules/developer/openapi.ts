import * as v from 'valibot';
import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { apiKeyCreateSchema, apiKeyCreatedSchema, apiKeyListSchema, apiKeyRevokeSchema, apiKeyRotateSchema, sandboxBalanceSchema, sandboxTopupSchema } from '../../../shared/schemas/developer';

// The Developers screen's endpoints (docs/product.md#integrators), for ENDPOINTS in src/server/openapi.ts.
// The integrators' API itself has its own document at /v1/openapi.json (modules/v1/openapi.ts).

const MANAGE_ERRORS = ['api_key_forbidden'] as const;

export const DEVELOPER_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.developerKeys,
    operationId: 'developerKeys',
    tag: 'Developers',
    summary: "The account's API keys (prefix, scopes, creator, created, last used) and its sandbox balances",
    auth: 'user',
    answer: apiKeyListSchema,
    answerName: 'ApiKeyList',
    errors: [...MANAGE_ERRORS],
    gives: '{list, sandbox}',
  },
  {
    method: 'post',
    path: PATHS.developerKeys,
    operationId: 'developerKeyCreate',
    tag: 'Developers',
    summary: 'Create an API key (owner and admins, or a person for her own account); the secret is answered once',
    schema: apiKeyCreateSchema,
    auth: 'user',
    answersSecret: true,
    answer: apiKeyCreatedSchema,
    answerName: 'ApiKeyCreated',
    errors: [...MANAGE_ERRORS, 'api_key_trade_forbidden', 'project_password_incorrect', 'account_locked', 'balance_frozen', 'withdraw_password_unset', 'api_keys_full', 'api_key_expiry_invalid'],
    gives: '{id, prefix, mode, key}',
  },
  {
    method: 'post',
    path: PATHS.developerKeysRevoke,
    operationId: 'developerKeyRevoke',
    tag: 'Developers',
    summary: 'Revoke an API key: its next request is refused',
    schema: apiKeyRevokeSchema,
    auth: 'user',
    idempotent: true,
    answer: v.null(),
    errors: [...MANAGE_ERRORS, 'api_key_not_found', 'api_key_revoked'],
    gives: 'null',
  },
  {
    method: 'post',
    path: PATHS.developerKeysRotate,
    operationId: 'developerKeyRotate',
    tag: 'Developers',
    summary: 'Rotate an API key: a new secret (answered once); the old key ends after overlap_hours',
    schema: apiKeyRotateSchema,
    auth: 'user',
    answersSecret: true,
    answer: apiKeyCreatedSchema,
    answerName: 'ApiKeyCreated',
    errors: [...MANAGE_ERRORS, 'api_key_trade_forbidden', 'api_key_not_found', 'api_key_revoked', 'project_password_incorrect', 'account_locked', 'balance_frozen', 'withdraw_password_unset', 'api_keys_full'],
    gives: '{id, prefix, mode, key}',
  },
  {
    method: 'post',
    path: PATHS.developerSandboxTopup,
    operationId: 'developerSandboxTopup',
    tag: 'Developers',
    summary: "S$10,000.00 more play money in the account's sandbox",
    schema: sandboxTopupSchema,
    auth: 'user',
    idempotent: true,
    answer: sandboxBalanceSchema,
    answerName: 'SandboxBalance',
    errors: [...MANAGE_ERRORS],
    gives: '{available, credits}',
  },
];
