import * as v from 'valibot';
import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { loginInfoSchema } from '../../../shared/schemas/auth';
import {
  passkeyAddSchema,
  passkeyCreationOptionsSchema,
  passkeyItemSchema,
  passkeyListSchema,
  passkeyLoginSchema,
  passkeyOptionsSchema,
  passkeyRemoveSchema,
  passkeyRequestOptionsSchema,
} from '../../../shared/schemas/passkey';

// The passkey endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.

export const PASSKEY_LOGIN_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.passkeyLoginOptions,
    operationId: 'loginPasskeyOptions',
    tag: 'Auth',
    summary: 'A challenge for signing in with a passkey',
    auth: 'none',
    answer: passkeyRequestOptionsSchema,
    answerName: 'PasskeyRequestOptions',
    errors: ['passkey_needs_name', 'too_many_requests'],
    gives: 'options for navigator.credentials.get() (WebAuthn JSON)',
  },
  {
    method: 'post',
    path: PATHS.passkeyLogin,
    operationId: 'loginPasskey',
    tag: 'Auth',
    summary: 'Sign in with a passkey',
    schema: passkeyLoginSchema,
    auth: 'none',
    answer: loginInfoSchema,
    errors: ['passkey_failed', 'passkey_needs_name', 'user_disabled', 'login_locked', 'too_many_requests'],
    gives: 'login info, as a login',
  },
];

export const PASSKEY_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.passkeys, operationId: 'userPasskeys', tag: 'Account', summary: 'The passkeys of this account', auth: 'user', answer: passkeyListSchema, answerName: 'PasskeyList', gives: '{list}: name, added, last used' },
  {
    method: 'post',
    path: PATHS.passkeyOptions,
    operationId: 'userPasskeyOptions',
    tag: 'Account',
    summary: 'A challenge for adding a passkey (the login password first)',
    schema: passkeyOptionsSchema,
    auth: 'user',
    idempotent: true,
    answer: passkeyCreationOptionsSchema,
    answerName: 'PasskeyCreationOptions',
    errors: ['passkeys_full', 'passkey_needs_name', 'password_incorrect', 'login_locked', 'too_many_requests'],
    gives: 'options for navigator.credentials.create() (WebAuthn JSON)',
  },
  {
    method: 'post',
    path: PATHS.passkeyAdd,
    operationId: 'userPasskeyAdd',
    tag: 'Account',
    summary: 'Keep the passkey the authenticator made',
    schema: passkeyAddSchema,
    auth: 'user',
    idempotent: true,
    answer: passkeyItemSchema,
    answerName: 'Passkey',
    errors: ['passkey_not_added', 'passkey_needs_name', 'passkeys_full'],
    gives: 'the passkey',
  },
  {
    method: 'post',
    path: PATHS.passkeyRemove,
    operationId: 'userPasskeyRemove',
    tag: 'Account',
    summary: 'Remove a passkey',
    schema: passkeyRemoveSchema,
    auth: 'user',
    idempotent: true,
    answer: v.null(),
    errors: ['not_found'],
    gives: 'null',
  },
];
