import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import * as v from 'valibot';
import { baseConfigSchema, loginInfoSchema, loginSchema, registerSchema, resetSchema, sendCodeSchema } from '../../../shared/schemas/auth';

// The auth endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.
export const AUTH_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.baseconfig, operationId: 'loginBaseconfig', tag: 'Auth', summary: 'App start-up settings', auth: 'none', answer: baseConfigSchema, gives: 'version, socket_host, currency, server time, limits' },
  {
    method: 'post',
    path: PATHS.sendcode,
    operationId: 'loginSendcode',
    tag: 'Auth',
    summary: 'Email a 6-digit verification code',
    schema: sendCodeSchema,
    auth: 'none',
    answer: v.null(),
    errors: ['registration_closed', 'email_exists', 'email_not_in_use', 'code_too_soon', 'bulk_registration', 'too_many_requests'],
    gives: 'null',
  },
  {
    method: 'post',
    path: PATHS.register,
    operationId: 'loginRegister',
    tag: 'Auth',
    summary: 'Register with email and code',
    schema: registerSchema,
    auth: 'none',
    answer: loginInfoSchema,
    errors: ['registration_closed', 'email_exists', 'invite_invalid', 'code_incorrect', 'bulk_registration'],
    gives: 'login info',
  },
  {
    method: 'post',
    path: PATHS.login,
    operationId: 'loginLogin',
    tag: 'Auth',
    summary: 'Log in',
    schema: loginSchema,
    auth: 'none',
    answer: loginInfoSchema,
    errors: ['login_incorrect', 'user_disabled', 'login_locked', 'too_many_requests'],
    gives: 'login info (token, mem_id, realname, account, mobile, avatar)',
  },
  { method: 'post', path: PATHS.visitor, operationId: 'loginVisitor', tag: 'Auth', summary: 'A guest session', auth: 'none', answer: loginInfoSchema, gives: 'login info with mem_id 0' },
  {
    method: 'post',
    path: PATHS.reset,
    operationId: 'loginReset',
    tag: 'Auth',
    summary: 'Reset the login password with an emailed code',
    schema: resetSchema,
    auth: 'none',
    answer: v.null(),
    errors: ['email_not_in_use', 'user_disabled', 'code_incorrect', 'too_many_requests'],
    gives: 'null',
  },
  { method: 'post', path: PATHS.logout, operationId: 'loginLogout', tag: 'Auth', summary: 'Revoke this session', auth: 'session', answer: v.null(), gives: 'null' },
];
