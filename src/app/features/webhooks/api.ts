import { useCallback, useEffect, useState } from 'react';
import { get, post, type ApiResult } from '../../lib/api';
import { PATHS } from '../../../shared/api';
import type { WebhookAttemptPage, WebhookCreate, WebhookList, WebhookSecret } from '../../../shared/schemas/webhook';

// The webhooks screen's endpoints (docs/product.md#webhooks). Online only: the list and the log are what
// the server says now (a delivery log read offline would mislead), and every write is a keyed write.

/** The account's endpoints (undefined while loading, null when the read failed). */
export function useWebhooks(): { list: WebhookList['list'] | null | undefined; reload: () => Promise<void> } {
  const [list, setList] = useState<WebhookList['list'] | null | undefined>(undefined);
  const reload = useCallback(async () => {
    const res = await get<WebhookList>(PATHS.webhooks, {}, { quiet: true });
    setList(res.code === 0 && res.data ? res.data.list : null);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { list, reload };
}

export function loadDeliveries(id: number): Promise<ApiResult<WebhookAttemptPage>> {
  return get<WebhookAttemptPage>(PATHS.webhookDeliveries, { id, page: 1, page_size: 20 }, { quiet: true });
}

export const createWebhook = (input: WebhookCreate, idempotencyKey: string) => post<WebhookSecret>(PATHS.webhooks, { ...input }, { idempotencyKey });
export const rotateWebhook = (input: { id: number }, idempotencyKey: string) => post<WebhookSecret>(PATHS.webhookRotate, { ...input }, { idempotencyKey });
export const deleteWebhook = (input: { id: number }, idempotencyKey: string) => post<{ id: number }>(PATHS.webhookDelete, { ...input }, { idempotencyKey });
export const pingWebhook = (input: { id: number }, idempotencyKey: string) => post<{ msg_id: string }>(PATHS.webhookPing, { ...input }, { idempotencyKey });
export const resendDelivery = (input: { delivery_id: number }, idempotencyKey: string) => post<{ delivery_id: number }>(PATHS.webhookResend, { ...input }, { idempotencyKey });
