import * as v from 'valibot';
import { PAGE_SIZE, PAGE_SIZE_MAX, TEXT_MAX_LENGTH } from '../constants';
import type { ErrorKey } from '../errors';

// Every message in these schemas is an error catalogue key, so client and server say the same thing.
const m = (key: ErrorKey) => key;

/** A required text field: present, not blank, at most 140 characters (docs/product.md#validation). */
export const requiredText = (max: number = TEXT_MAX_LENGTH) =>
  v.pipe(v.string(m('required')), v.trim(), v.nonEmpty(m('required')), v.maxLength(max, m('too_long')));

export const optionalText = (max: number = TEXT_MAX_LENGTH) =>
  v.optional(v.pipe(v.string(m('invalid_request')), v.trim(), v.maxLength(max, m('too_long'))), '');

/** Whole numbers that may arrive as strings (query strings, form inputs). Safe integers only: a JSON number
 *  such as 1e300 is an integer to JavaScript but no bigint to PostgreSQL, whose refusal would be a server
 *  fault instead of the field's own. */
export const intFromInput = (key: ErrorKey = 'invalid_number') =>
  v.pipe(
    v.union([v.number(m(key)), v.pipe(v.string(m(key)), v.regex(/^-?\d{1,15}$/, m(key)), v.transform(Number))], m(key)),
    v.safeInteger(m(key)),
  );

export const idSchema = v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')));

export const pageSchema = v.object({
  page: v.optional(v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')), v.maxValue(100_000, m('invalid_request'))), 1),
  page_size: v.optional(
    v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')), v.maxValue(PAGE_SIZE_MAX, m('invalid_request'))),
    PAGE_SIZE,
  ),
});

/** The first issue of a failed parse, as a catalogue key plus the field it concerns. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): { key: string; field?: string; max?: number } {
  const issue = issues[0];
  const field = issue?.path?.map((p) => String(p.key)).join('.') || undefined;
  const max = issue?.type === 'max_length' ? Number(issue.requirement) : undefined;
  // A key missing from an object is reported by the object schema with valibot's own text: it is the
  // "required field" rule of docs/product.md#validation.
  if (issue && issue.kind === 'schema' && issue.input === undefined && field) return { key: 'required', field };
  return { key: issue?.message ?? 'invalid_request', field, max };
}

// ---- Answers: what the envelope's `data` holds on success. Written once here: the types the
// app and server use are inferred from these (v.InferOutput), and the OpenAPI document is generated from
// them (src/server/openapi.ts). Strict objects: an answer with a field the schema does not name fails the
// contract tests (docs/decisions/0012-api-contract.md).

/** A whole number (JSON Schema `integer`). */
export const int = () => v.pipe(v.number(), v.integer());
/** A time as ISO 8601 with the SGT offset, e.g. 2026-03-02T10:00:00+08:00 (each has an epoch-ms twin). */
export const isoTime = () => v.pipe(v.string(), v.description('ISO 8601 time in SGT (+08:00)'));
/** Epoch milliseconds. */
export const epochMs = () => v.pipe(v.number(), v.integer(), v.description('Epoch milliseconds'));

/** The one shape of a paged list: {list, total, page, page_size} plus any extra entries (e.g. next_cursor). */
export function paged<TItem extends v.GenericSchema, TExtra extends v.ObjectEntries = Record<never, never>>(item: TItem, extra?: TExtra) {
  return v.strictObject({
    list: v.array(item),
    total: int(),
    page: int(),
    page_size: int(),
    ...((extra ?? {}) as TExtra),
  });
}

/** Keyset lists (projects, news): next_cursor is the position of the page after this one, null on the last. */
export const nextCursor = () => v.pipe(v.nullable(v.string()), v.description('Pass back as `cursor` for the next page; null on the last page'));
