import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { parseTons, tonsProblem, type TonsBounds } from './order-calc';

/** The tons field of an order form: its text, the whole number it holds and the catalogue message of a bad value. */
export function useTons(bounds: TonsBounds | null, initial?: number) {
  const { i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  // Start at the minimum (or the given amount) once the bounds are known.
  const min = bounds?.min;
  useEffect(() => {
    if (min !== undefined) setText((cur) => (cur === '' ? String(initial ?? min) : cur));
  }, [min, initial]);
  const n = parseTons(text);
  const problem = bounds ? tonsProblem(n, bounds) : null;
  const message =
    !bounds || !problem
      ? ''
      : problem === 'empty'
        ? errorMessage('invalid_number', lang)
        : problem === 'below_min'
          ? errorMessage('below_min_tons', lang, { n: bounds.min })
          : errorMessage('above_max_tons', lang, { n: bounds.max });
  return {
    text,
    setText: (next: string) => {
      setTouched(true);
      setText(next);
    },
    tons: n ?? 0,
    valid: bounds !== null && problem === null,
    error: touched ? message : '',
    message,
  };
}
