// Contract tests (docs/decisions/0012-api-contract.md): every answer a server test receives through the test
// client (server.ts api() and raw()) is checked against the OpenAPI document the server serves, compiled once
// per worker with ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). A success must match its operation's 200
// schema (the envelope with that operation's `data`, no field more or less); a refusal must be the error
// envelope; an answer from a path or method the document does not list fails, except the catch-all 404 of an
// unknown path. Each worker appends the operationIds it saw answer to a file in a directory the global setup
// made (tests/setup/contract-global.ts), which prints "contract: N of M operations seen" at the end of the
// run.
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../src/server/openapi';
import { ERRORS } from '../../src/shared/errors';

declare module 'vitest' {
  export interface ProvidedContext {
    contractSeenDir: string;
  }
}

// ajv-formats is CommonJS: its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type Doc = { paths: Record<string, Record<string, Operation>> };
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: { anyOf?: unknown[] } & Record<string, unknown> }> }>;
}

interface Route {
  method: string;
  template: string;
  re: RegExp;
  op: Operation;
  success?: ValidateFunction;
}

export interface Contract {
  /** Every operation of the document, as `method path` with its operationId. */
  operations: { method: string; path: string; operationId: string }[];
  /** Throws when the answer does not match the document; returns the operationId it matched (null: the
   *  catch-all 404 of an unknown path) and whether it was a success (code 0, or a bare 200). */
  check(method: string, url: string, status: number, contentType: string | null, body: unknown): { id: string; success: boolean } | null;
}

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** A contract over a document (the served one by default; the contract test passes a broken copy). */
export function createContract(doc: Doc = openApiDocument({ PUBLIC_URL: 'http://127.0.0.1', PORT: 0 }) as unknown as Doc): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi.json');
  const errorEnvelope = ajv.compile({ $ref: 'openapi.json#/components/schemas/ErrorEnvelope' });
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const re = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$');
    for (const [method, op] of Object.entries(methods)) routes.push({ method: method.toUpperCase(), template, re, op });
  }

  function successOf(route: Route): ValidateFunction | null {
    const content = route.op.responses['200']?.content?.['application/json'];
    if (!content?.schema) return null;
    if (!route.success) {
      // The 200 schema is anyOf [success envelope, error envelope]: a success is checked against the first.
      const base = `openapi.json#/paths/${pointer(route.template)}/${route.method.toLowerCase()}/responses/200/content/${pointer('application/json')}/schema`;
      route.success = ajv.compile({ $ref: content.schema.anyOf ? `${base}/anyOf/0` : base });
    }
    return route.success;
  }

  const fail = (what: string, errors: ErrorObject[] | null | undefined, body: unknown): never => {
    const detail = (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`).join('; ');
    throw new Error(`contract: ${what} does not match the OpenAPI document: ${detail}\n${JSON.stringify(body).slice(0, 600)}`);
  };

  return {
    operations: routes.map((r) => ({ method: r.method, path: r.template, operationId: r.op.operationId })),
    check(method, url, status, contentType, body) {
      const pathname = new URL(url, 'http://x').pathname;
      const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const route = routes.find((r) => r.method === m && r.re.test(pathname));
      const json = (contentType ?? '').includes('application/json');
      if (!route) {
        // The API's catch-all: any other path or method is 404 not_found, in the error envelope.
        if (status === 404 && json && (body as { code?: number } | null)?.code === ERRORS.not_found.code) {
          if (!errorEnvelope(body)) fail(`the 404 of ${method} ${pathname}`, errorEnvelope.errors, body);
          return null;
        }
        throw new Error(`contract: ${method} ${pathname} answered ${status}, but the OpenAPI document has no such operation`);
      }
      const id = route.op.operationId;
      if (!json || method.toUpperCase() === 'HEAD') return { id, success: status === 200 }; // a picture, or no body
      const code = (body as { code?: unknown } | null)?.code;
      if (status === 200 && code === 0) {
        const validate = successOf(route);
        if (validate && !validate(body)) fail(`${method} ${pathname} (${id})`, validate.errors, body);
        return { id, success: true };
      }
      if (status !== 200 || code !== undefined) {
        if (!errorEnvelope(body)) fail(`the refusal of ${method} ${pathname} (${id})`, errorEnvelope.errors, body);
        return { id, success: false };
      }
      // A bare JSON answer (the document itself): its own 200 schema.
      const validate = successOf(route);
      if (validate && !validate(body)) fail(`${method} ${pathname} (${id})`, validate.errors, body);
      return { id, success: true };
    },
  };
}

let shared: Contract | null = null;
const seen = new Set<string>();

function seenFile(): string | null {
  let dir: string | undefined;
  try {
    dir = inject('contractSeenDir');
  } catch {
    dir = undefined;
  }
  return dir ? path.join(dir, `seen-${process.pid}.txt`) : null;
}

/** Checks one answer against the served document and records its operation as seen. */
export function checkAnswer(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  shared ??= createContract();
  const answer = shared.check(method, url, status, contentType, body);
  // Seen: an operation that answered with success (its data checked against its schema).
  if (answer?.success && !seen.has(answer.id)) {
    seen.add(answer.id);
    const file = seenFile();
    if (file) fs.appendFileSync(file, answer.id + '\n');
  }
}
