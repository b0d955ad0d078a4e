import * as v from 'valibot';
import { PAGE_SIZE, PAGE_SIZE_MAX, TEXT_MAX_LENGTH } from '../constants';
import type { ErrorKey } from '../errors';

// Every message in these schemas is an error catalogue key, so client and server say the same thing.
const m = (key: ErrorKey) => key;

/** A required text field: present, not blank, at most 140 characters (SPEC section 5). */
export const requiredText = (max: number = TEXT_MAX_LENGTH) =>
  v.pipe(v.string(m('required')), v.trim(), v.nonEmpty(m('required')), v.maxLength(max, m('too_long')));

export const optionalText = (max: number = TEXT_MAX_LENGTH) =>
  v.optional(v.pipe(v.string(m('invalid_request')), v.trim(), v.maxLength(max, m('too_long'))), '');

/** Whole numbers that may arrive as strings (query strings, form inputs). */
export const intFromInput = (key: ErrorKey = 'invalid_number') =>
  v.pipe(
    v.union([v.number(m(key)), v.pipe(v.string(m(key)), v.regex(/^-?\d{1,15}$/, m(key)), v.transform(Number))], m(key)),
    v.integer(m(key)),
  );

export const idSchema = v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')));

export const pageSchema = v.object({
  page: v.optional(v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')), v.maxValue(100_000, m('invalid_request'))), 1),
  page_size: v.optional(
    v.pipe(intFromInput('invalid_request'), v.minValue(1, m('invalid_request')), v.maxValue(PAGE_SIZE_MAX, m('invalid_request'))),
    PAGE_SIZE,
  ),
});

export const langSchema = v.optional(v.picklist(['en', 'cn'], m('invalid_request')), 'en');

/** The first issue of a failed parse, as a catalogue key plus the field it concerns. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): { key: string; field?: string; max?: number } {
  const issue = issues[0];
  const field = issue?.path?.map((p) => String(p.key)).join('.') || undefined;
  const max = issue?.type === 'max_length' ? Number(issue.requirement) : undefined;
  // A key missing from an object is reported by the object schema with valibot's own text: it is the
  // "required field" rule of SPEC section 5.
  if (issue && issue.kind === 'schema' && issue.input === undefined && field) return { key: 'required', field };
  return { key: issue?.message ?? 'invalid_request', field, max };
}
