import { Fragment, useState, type ReactNode } from 'react';

/** A form that starts again empty after each success (values, errors and intent key): its children are
 *  remounted by key. `onSuccess` runs too, e.g. to reload the records below the form. */
export function FreshAfterSuccess({ children, onSuccess }: { children: (done: () => void) => ReactNode; onSuccess?: () => void }) {
  const [round, setRound] = useState(0);
  const done = () => {
    setRound((r) => r + 1);
    onSuccess?.();
  };
  return <Fragment key={round}>{children(done)}</Fragment>;
}
