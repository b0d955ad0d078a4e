import type * as v from 'valibot';
import type { ErrorKey } from '../../shared/errors';

/** One API operation in the OpenAPI document; modules list theirs and openapi.ts assembles them. */
export interface Endpoint {
  method: 'get' | 'post';
  path: string;
  summary: string;
  /** The request: the JSON body of a POST, the query of a GET. */
  schema?: v.GenericSchema;
  auth?: 'none' | 'session' | 'user';
  /** Prose kept for the description; `answer` is what the document and the contract tests use. */
  gives: string;
  /** A stable camelCase name, e.g. `orderBuy` (issue 14). */
  operationId?: string;
  /** The area, e.g. 'Orders', 'Wallet' (one tag per area). */
  tag?: string;
  /** The valibot schema of the envelope's `data` on success (src/shared/schemas); null answers use v.null(). */
  answer?: v.GenericSchema;
  /** The catalogue errors this operation can refuse with. */
  errors?: ErrorKey[];
  /** True when the write takes an Idempotency-Key header. */
  idempotent?: boolean;
}
