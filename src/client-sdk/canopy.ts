import createClient from 'openapi-fetch';
import type { paths } from './v1';

// The typed client of the integrators' API (/v1): openapi-fetch over the types openapi-typescript
// generates from /v1/openapi.json (npm run client:generate writes v1.d.ts). Every call, path, body and
// answer is typed from the document; a refusal comes back as `error`, the problem details.

export type { paths };

export interface CanopyOptions {
  /** ck_test_... (the sandbox) or ck_live_... (real money). */
  key: string;
  /** The server's /v1, e.g. https://canopy.sg/v1. */
  baseUrl: string;
  /** en or zh: the language of problem details. */
  language?: 'en' | 'zh';
}

export function canopyClient(o: CanopyOptions) {
  return createClient<paths>({ baseUrl: o.baseUrl, headers: { Authorization: `Bearer ${o.key}`, 'Accept-Language': o.language ?? 'en' } });
}

/** A fresh Idempotency-Key: one per intent (keep it to retry the same intent). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
