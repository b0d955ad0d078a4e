import * as v from 'valibot';
import { epochMs, idSchema, int, paged, pageSchema } from './common';

// Webhooks (docs/product.md#webhooks, Standard Webhooks): the events, and the endpoints' requests and answers.

export const WEBHOOK_EVENT_TYPES = ['order.completed', 'retirement.created', 'retirement.cancelled', 'topup.credited', 'withdrawal.completed', 'approval.requested', 'approval.decided', 'ping'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_MODES = ['live', 'test'] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];
/** Most endpoints one account keeps (both modes together). */
export const WEBHOOK_ENDPOINTS_MAX = 10;
const URL_MAX = 500;

/** A receiver's URL as typed: an absolute https URL without credentials. Plain http, and whether the host
 *  is a public address, are the server's to judge (its configuration, DNS at send time). */
const webhookUrlSchema = v.pipe(
  v.string('webhook_url_invalid'),
  v.trim(),
  v.maxLength(URL_MAX, 'webhook_url_invalid'),
  v.check((x) => {
    try {
      const u = new URL(x);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'webhook_url_invalid'),
);

export const webhookCreateSchema = v.strictObject({
  url: webhookUrlSchema,
  events: v.pipe(
    v.array(v.picklist(WEBHOOK_EVENT_TYPES, 'webhook_events_invalid'), 'webhook_events_invalid'),
    v.minLength(1, 'webhook_events_invalid'),
    v.maxLength(WEBHOOK_EVENT_TYPES.length, 'webhook_events_invalid'),
    v.transform((xs) => [...new Set(xs)]),
  ),
  mode: v.picklist(WEBHOOK_MODES, 'invalid_request'),
});
export type WebhookCreate = v.InferInput<typeof webhookCreateSchema>;

export const webhookIdSchema = v.strictObject({ id: idSchema });
export const webhookResendSchema = v.strictObject({ delivery_id: idSchema });
export const webhookDeliveriesQuery = v.object({ id: idSchema, ...pageSchema.entries });

// ---- Answers

export const webhookEndpointSchema = v.strictObject({
  id: int(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  mode: v.picklist(WEBHOOK_MODES),
  created_at: epochMs(),
  disabled_at: v.pipe(v.nullable(epochMs()), v.description('Set when deliveries failed for the whole retry schedule: nothing is sent until a ping or resend')),
});
export type WebhookEndpoint = v.InferOutput<typeof webhookEndpointSchema>;

export const webhookListSchema = v.strictObject({ list: v.array(webhookEndpointSchema) });
export type WebhookList = v.InferOutput<typeof webhookListSchema>;

export const webhookSecretSchema = v.strictObject({
  ...webhookEndpointSchema.entries,
  secret: v.pipe(v.string(), v.description('whsec_ and the base64 signing key: shown this once')),
});
export type WebhookSecret = v.InferOutput<typeof webhookSecretSchema>;

export const webhookPingSchema = v.strictObject({ msg_id: v.pipe(v.string(), v.description('The webhook-id of the ping')) });

export const webhookAttemptSchema = v.strictObject({
  id: int(),
  delivery_id: int(),
  msg_id: v.string(),
  type: v.picklist(WEBHOOK_EVENT_TYPES),
  attempt: int(),
  status: v.pipe(v.picklist(['pending', 'delivered', 'failed']), v.description("The delivery's state now")),
  status_code: v.pipe(int(), v.description("The receiver's HTTP status; 0: no answer")),
  latency_ms: int(),
  error: v.nullable(v.string()),
  created_at: epochMs(),
});
export type WebhookAttempt = v.InferOutput<typeof webhookAttemptSchema>;
export const webhookAttemptPageSchema = paged(webhookAttemptSchema);
export type WebhookAttemptPage = v.InferOutput<typeof webhookAttemptPageSchema>;
