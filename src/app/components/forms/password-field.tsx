import type { ReactNode } from 'react';
import type { FieldErrors } from '../../lib/form';
import { Field } from './field';
import { PasswordInput } from './password-input';

/** The parts of a useSchemaForm a password field needs. */
export interface PasswordFormState<N extends string> {
  values: Record<N, string>;
  set: (name: N, value: string) => void;
  errors: FieldErrors;
  a11y: (name: N) => { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}

/** A labelled password field (label, input with show/hide, hint or error) wired to one value of a
 *  schema form: the one shape every password form repeats. */
export function PasswordField<N extends string>({
  form,
  formId,
  name,
  label,
  hint,
  testId,
  autoComplete,
}: {
  form: PasswordFormState<N>;
  formId: string;
  name: N;
  label: ReactNode;
  hint?: ReactNode;
  testId: string;
  autoComplete: 'current-password' | 'new-password';
}) {
  return (
    <Field label={label} name={name} form={formId} errors={form.errors} hint={hint}>
      <PasswordInput
        {...form.a11y(name)}
        testId={testId}
        autoComplete={autoComplete}
        value={form.values[name]}
        onChange={(v) => form.set(name, v)}
      />
    </Field>
  );
}
