import { useCallback, useRef } from 'react';
import { newIdempotencyKey } from './api';
import { TRANSPORT_ERRORS as ERRORS } from '../../shared/errors-transport';

// One Idempotency-Key per user intent (docs/product.md#writes-and-retries). The key is kept while the same
// intent is retried after a transport failure (no answer, timeout, HTTP error: the first request may have
// gone through, so the retry must be recognised by the server) and while the server is still working on it;
// it is renewed after a success (the next top-up is a new intent, even with the same amount) and after a
// business refusal (nothing happened; the server forgot the key).

/** True when the answer's code leaves the intent open, so a retry must carry the same key. */
export function keepsIntentKey(code: number): boolean {
  if (code === ERRORS.idempotency_in_progress.code) return true;
  return code > 0 && code < 1000; // request-layer codes: network error, timeout, HTTP status
}

export function useIntentKey() {
  const last = useRef<{ payload: string; key: string } | null>(null);
  /** The key for this payload: the kept one when the same payload is sent again, a fresh one otherwise. */
  const keyFor = useCallback((payload: unknown): string => {
    const text = JSON.stringify(payload);
    if (last.current?.payload !== text) last.current = { payload: text, key: newIdempotencyKey() };
    return last.current.key;
  }, []);
  /** Call with the answer's code: renews the key unless the intent is still open. */
  const settle = useCallback((code: number) => {
    if (!keepsIntentKey(code)) last.current = null;
  }, []);
  return { keyFor, settle };
}
