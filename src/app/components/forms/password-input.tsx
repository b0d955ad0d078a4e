import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { TEXT_MAX_LENGTH } from '../../../shared/constants';
import './forms.css';

/** A password input with a show / hide switch. */
export function PasswordInput({
  value,
  onChange,
  autoComplete,
  testId,
  ...a11y
}: {
  testId?: string;
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** Focused when the sheet around it opens (components/sheet.tsx). */
  'data-autofocus'?: boolean;
}) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <div className="password">
      <input
        {...a11y}
        data-testid={testId}
        className="input"
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        maxLength={TEXT_MAX_LENGTH}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <button type="button" className="password__toggle" onClick={() => setShown((s) => !s)} aria-pressed={shown} aria-label={t`Show password`}>
        {shown ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
      </button>
    </div>
  );
}
