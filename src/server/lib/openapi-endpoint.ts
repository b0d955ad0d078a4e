import type * as v from 'valibot';
import type { ErrorKey } from '../../shared/errors';
import type { Config } from '../config';

/** One API operation in the OpenAPI document; modules list theirs and openapi.ts assembles them.
 *  How to add one: docs/decisions/0012-api-contract.md. */
export interface Endpoint {
  method: 'get' | 'post';
  /** A PATHS entry (without API_BASE); `:name` segments become `{name}` path parameters. */
  path: string;
  summary: string;
  /** The request: the JSON body of a POST, the query of a GET. Its messages (catalogue keys) are listed
   *  among the operation's errors by themselves. */
  schema?: v.GenericSchema;
  auth?: 'none' | 'session' | 'user';
  /** Prose kept for the description; `answer` is what the document and the contract tests use. */
  gives: string;
  /** A stable camelCase name, e.g. `orderBuy`: clients generated from the document name their calls by it. */
  operationId?: string;
  /** The area, e.g. 'Orders', 'Wallet' (one tag per area; described in TAG_DESCRIPTIONS of openapi.ts). */
  tag?: string;
  /** The valibot schema of the envelope's `data` on success (src/shared/schemas); null answers use v.null(). */
  answer?: v.GenericSchema;
  /** The name of `answer` in components.schemas when it is not one of openapi.ts's NAMED_SCHEMAS. */
  answerName?: string;
  /** The catalogue errors this operation can refuse with, besides those the generator adds by itself (the
   *  request schema's messages, the session's and the Idempotency-Key's: see openapi.ts autoErrors). */
  errors?: ErrorKey[];
  /** True when the write takes an Idempotency-Key header. */
  idempotent?: boolean;
  /** A write that answers a secret shown once (an API key): it takes no Idempotency-Key, since its stored
   *  answer would keep the secret. */
  answersSecret?: boolean;
  /** An answer outside the envelope: its media types (the document itself, a stored picture, the
   *  reference page). */
  bare?: string[];
  /** A raw request body of these media types instead of JSON (the avatar upload). */
  upload?: string[];
}

/** An OpenAPI document built once per configuration and URL: its `servers` is PUBLIC_URL, which server.ts fills
 *  in at start when unset, so the URL is read again on every call and a new one builds the document anew. */
export function documentPerConfig<T>(build: (url: string) => T): (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>) => T {
  const documents = new WeakMap<object, { url: string; doc: T }>();
  return (config) => {
    const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
    const kept = documents.get(config);
    if (kept && kept.url === url) return kept.doc;
    const doc = build(url);
    documents.set(config, { url, doc });
    return doc;
  };
}
