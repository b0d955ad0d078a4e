// Webhooks (docs/product.md#webhooks, Standard Webhooks): the events, and the endpoints' requests and answers.

export const WEBHOOK_EVENT_TYPES = ['order.completed', 'retirement.created', 'topup.credited', 'withdrawal.completed', 'approval.requested', 'approval.decided', 'ping'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_MODES = ['live', 'test'] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];
