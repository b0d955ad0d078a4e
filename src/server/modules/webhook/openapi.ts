import * as v from 'valibot';
import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { webhookAttemptPageSchema, webhookCreateSchema, webhookDeliveriesQuery, webhookIdSchema, webhookListSchema, webhookPingSchema, webhookResendSchema, webhookSecretSchema } from '../../../shared/schemas/webhook';

// The webhook endpoints (docs/product.md#webhooks), for ENDPOINTS in src/server/openapi.ts.

const byId = (path: string, operationId: string, summary: string, answer: v.GenericSchema, answerName: string | undefined, gives: string): Endpoint => ({
  method: 'post',
  path,
  operationId,
  tag: 'Webhooks',
  summary,
  schema: webhookIdSchema,
  auth: 'user',
  idempotent: true,
  answer,
  ...(answerName ? { answerName } : {}),
  errors: ['org_role_forbidden', 'webhook_not_found'],
  gives,
});

export const WEBHOOK_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.webhooks,
    operationId: 'webhookList',
    tag: 'Webhooks',
    summary: "The account's webhook endpoints, newest first (a person's own; an organisation's for its owner and admins)",
    auth: 'user',
    answer: webhookListSchema,
    errors: ['org_role_forbidden'],
    gives: '{list}',
  },
  {
    method: 'post',
    path: PATHS.webhooks,
    operationId: 'webhookCreate',
    tag: 'Webhooks',
    summary: 'Add a webhook endpoint for one mode (live or test) and the events it receives; the answer carries its signing secret (whsec_...), shown this once',
    schema: webhookCreateSchema,
    auth: 'user',
    idempotent: true,
    answer: webhookSecretSchema,
    answerName: 'WebhookSecret',
    errors: ['org_role_forbidden', 'webhook_url_private', 'webhook_endpoints_full'],
    gives: 'the endpoint with its secret',
  },
  byId(PATHS.webhookRotate, 'webhookRotate', 'A new signing secret for the endpoint, shown this once; the old one signs too for 24 hours', webhookSecretSchema, 'WebhookSecret', 'the endpoint with its new secret'),
  byId(PATHS.webhookDelete, 'webhookDelete', 'Remove the endpoint, its pending deliveries and its log', v.strictObject({ id: v.number() }), 'WebhookDeleted', '{id}'),
  byId(PATHS.webhookPing, 'webhookPing', 'Send a ping event to the endpoint (a disabled endpoint is enabled again)', webhookPingSchema, 'WebhookPing', '{msg_id}'),
  {
    method: 'get',
    path: PATHS.webhookDeliveries,
    operationId: 'webhookDeliveries',
    tag: 'Webhooks',
    summary: "The endpoint's delivery log: one line per try (time, status, response code, latency, attempt), newest first",
    schema: webhookDeliveriesQuery,
    auth: 'user',
    answer: webhookAttemptPageSchema,
    answerName: 'WebhookAttemptPage',
    errors: ['org_role_forbidden', 'webhook_not_found'],
    gives: '{list, total, page, page_size}',
  },
  {
    method: 'post',
    path: PATHS.webhookResend,
    operationId: 'webhookResend',
    tag: 'Webhooks',
    summary: "Send a delivery's event to its endpoint again, with the same webhook-id (a disabled endpoint is enabled again)",
    schema: webhookResendSchema,
    auth: 'user',
    idempotent: true,
    answer: v.strictObject({ delivery_id: v.number() }),
    answerName: 'WebhookResent',
    errors: ['org_role_forbidden', 'webhook_delivery_not_found'],
    gives: '{delivery_id}',
  },
];
