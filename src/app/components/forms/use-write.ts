import { useCallback, useRef, useState } from 'react';
import type { ApiResult } from '../../lib/api';
import { useIntentKey } from '../../lib/intent-key';
import { clearKeptError } from '../page-notice';

/**
 * One write of a form: the intent's Idempotency-Key, busy state, and the server's refusal kept as returned (it
 * is already in the user's language) for the form to show inline, next to what it refuses; a toast on top
 * would say it twice.
 */
export function useWrite<I, O>(send: (input: I, key: string) => Promise<ApiResult<O>>, keyPayload: (input: I) => unknown = (input) => input) {
  const { keyFor, settle } = useIntentKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const inFlight = useRef(false);
  const run = useCallback(
    async (input: I): Promise<ApiResult<O> | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      setBusy(true);
      setError('');
      clearKeptError();
      try {
        const res = await send(input, keyFor(keyPayload(input)));
        settle(res.code);
        if (res.code !== 0) setError(res.msg);
        return res;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [send, keyFor, keyPayload, settle],
  );
  return { run, busy, error, setError };
}
