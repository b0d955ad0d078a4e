import type * as v from 'valibot';

/** One API operation in the OpenAPI document; modules list theirs and openapi.ts assembles them. */
export interface Endpoint {
  method: 'get' | 'post';
  path: string;
  summary: string;
  schema?: v.GenericSchema;
  auth?: 'none' | 'session' | 'user';
  gives: string;
}
