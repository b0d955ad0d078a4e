import type { ReactNode } from 'react';
import type { FieldErrors } from '../../lib/form';
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
