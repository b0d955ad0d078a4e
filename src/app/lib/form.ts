import { useCallback, useMemo, useState } from 'react';
import * as v from 'valibot';
import { REQUIRED_FIELD_MESSAGES, errorMessage, isErrorKey, type Lang, type MessageParams } from '../../shared/errors';
import { wireLang } from './i18n';

// Client-side validation from the shared valibot schemas (src/shared/schemas). The schemas carry error
// catalogue keys as messages, so a form says exactly what the server would say for the same rule.

export type FieldErrors = Record<string, string>;

export type ValidationResult<S extends v.GenericSchema> =
  | { ok: true; output: v.InferOutput<S>; errors: FieldErrors }
  | { ok: false; output?: undefined; errors: FieldErrors };

/** The catalogue text of one issue; {n} comes from a max_length requirement ("at most 140 characters"). */
export function issueMessage(issue: v.BaseIssue<unknown>, lang: Lang): string {
  // A key missing from an object is reported by the object schema itself, with valibot's own text: for a
  // form it means the field was left empty.
  const empty = (issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && issue.path?.length) || issue.message === 'required';
  if (empty) {
    const named = REQUIRED_FIELD_MESSAGES[issueField(issue)];
    return named ? named[lang] : errorMessage('required', lang);
  }
  const key = issue.message;
  if (!isErrorKey(key)) return errorMessage('invalid_request', lang);
  const params: MessageParams | undefined = issue.type === 'max_length' ? { n: Number(issue.requirement) } : undefined;
  return errorMessage(key, lang, params);
}

/** The form field an issue belongs to: the first key of its path ('' for an issue about the whole form). */
export function issueField(issue: v.BaseIssue<unknown>): string {
  const first = issue.path?.[0];
  return first && first.key !== undefined && first.key !== null ? String(first.key) : '';
}

/**
 * Parses values with a shared schema. On failure, one message per field (the first rule it breaks), in the
 * given language (the app's current one by default).
 */
export function validate<S extends v.GenericSchema>(schema: S, values: unknown, lang: Lang = wireLang()): ValidationResult<S> {
  const result = v.safeParse(schema, values);
  if (result.success) return { ok: true, output: result.output, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = issueField(issue);
    if (!(field in errors)) errors[field] = issueMessage(issue, lang);
  }
  return { ok: false, errors };
}

/** Accessibility wiring of one input: its id, invalid state and the id of its error text. */
export function fieldA11y(form: string, name: string, errors: FieldErrors) {
  const id = `${form}-${name}`;
  const invalid = Boolean(errors[name]);
  return {
    id,
    name,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `${id}-error` : undefined,
  } as const;
}

/**
 * Form state validated by a shared schema. Errors show after the first submit attempt and then follow
 * every change (and the language: they are recomputed from the values, never stored as text).
 */
export function useSchemaForm<S extends v.GenericSchema, V extends Record<string, unknown>>(form: string, schema: S, initial: V, lang: Lang) {
  const [values, setValues] = useState<V>(initial);
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(() => validate(schema, values, lang), [schema, values, lang]);
  const errors = useMemo(() => (submitted ? result.errors : {}), [submitted, result]);

  const set = useCallback(<K extends keyof V>(name: K, value: V[K]) => setValues((old) => ({ ...old, [name]: value })), []);

  /** Marks the form as submitted; answers the parsed output when every rule holds. */
  const check = useCallback((): v.InferOutput<S> | null => {
    setSubmitted(true);
    if (!result.ok) {
      // Move focus to the first invalid field, so keyboard and screen-reader users land on the problem.
      const first = Object.keys(result.errors)[0];
      if (first && typeof document !== 'undefined') document.getElementById(`${form}-${first}`)?.focus();
      return null;
    }
    return result.output;
  }, [result, form]);

  const a11y = useCallback((name: keyof V & string) => fieldA11y(form, name, errors), [form, errors]);

  /** Starts over after a success (the next entry): these values, and no errors until the next submit. */
  const reset = useCallback((next: V) => {
    setValues(next);
    setSubmitted(false);
  }, []);

  return { values, set, errors, check, a11y, setValues, reset };
}
