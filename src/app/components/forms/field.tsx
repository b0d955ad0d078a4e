import type { InputHTMLAttributes, ReactNode } from 'react';
import type { FieldErrors, fieldA11y } from '../../lib/form';
import './forms.css';

/** A labelled form field with its hint or error text (ids follow fieldA11y: `${form}-${name}`). */
export function Field({
  label,
  name,
  form = 'login',
  errors,
  hint,
  children,
}: {
  label: ReactNode;
  name: string;
  form?: string;
  errors: FieldErrors;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const id = `${form}-${name}`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !errors[name] && <p className="field__hint">{hint}</p>}
      {errors[name] && (
        <p className="field__error" id={`${id}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled text input: the Field around an `input` wired with the form's a11y attributes (id, name, aria),
 * its test id and value. `onChange` gets the text as typed; the caller filters it (digits only, capitals).
 */
export function InputField({
  label,
  form,
  errors,
  hint,
  a11y,
  testId,
  value,
  onChange,
  className = 'input',
  ...attrs
}: {
  label: ReactNode;
  form: string;
  errors: FieldErrors;
  hint?: ReactNode;
  a11y: ReturnType<typeof fieldA11y>;
  testId?: string;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name' | 'form' | 'id'>) {
  return (
    <Field label={label} name={a11y.name} form={form} errors={errors} hint={hint}>
      <input {...a11y} {...attrs} data-testid={testId} className={className} value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
