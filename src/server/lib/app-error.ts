import type { ErrorKey, MessageParams } from '../../shared/errors';

/** A business refusal: answered as HTTP 200 with code > 0 (or < 0 for session) from the catalogue. */
export class AppError extends Error {
  constructor(
    public readonly key: ErrorKey,
    public readonly params?: MessageParams,
    public readonly data: unknown = null,
    /** A throttle answers HTTP 429 with Retry-After (seconds); every other refusal is HTTP 200. */
    public readonly retryAfterSec?: number,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A throttle's refusal: HTTP 429, Retry-After, and the catalogue message in the user's language. */
export function throttled(retryAfterMs: number, key: ErrorKey = 'too_many_requests'): AppError {
  const sec = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(key, undefined, { retry_after: sec }, sec);
}
