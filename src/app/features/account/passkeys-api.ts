import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { get, post, type ApiResult } from '../../lib/api';
import { db, PASSKEYS_KEY } from '../../lib/db';
import { wireLang } from '../../lib/i18n';
import { ERRORS, errorMessage } from '../../../shared/errors';
import { useLiveRefresh } from '../../lib/live-refresh';
import { PATHS } from '../../../shared/api';
import type { PasskeyItem, PasskeyList } from '../../../shared/schemas/passkey';

// The passkeys screen's endpoints (docs/product.md#passkeys). The list is kept in Dexie's meta (per user,
// wiped on sign-out) so it reads offline; adding and removing are keyed writes (useWrite), and each
// success refreshes the list.

interface CachedPasskeys {
  mem_id: number;
  list: PasskeyItem[];
  saved_at: number;
}

export async function refreshPasskeys(memId: number): Promise<ApiResult<PasskeyList>> {
  const res = await get<PasskeyList>(PATHS.passkeys, {}, { quiet: true });
  if (res.code === 0 && res.data) await db.meta.put({ key: PASSKEYS_KEY, value: { mem_id: memId, list: res.data.list, saved_at: Date.now() } satisfies CachedPasskeys });
  return res;
}

/** The member's passkeys from the device (undefined while it is read), refreshed on open and on reconnect. */
/** The member's passkeys: undefined while Dexie answers, null when this device has never loaded them. */
export function usePasskeys(memId: number): { list: PasskeyItem[] | null | undefined; reload: () => Promise<unknown> } {
  const entry = useLiveQuery(async () => ((await db.meta.get(PASSKEYS_KEY))?.value as CachedPasskeys | undefined) ?? null, []);
  const reload = useCallback(() => refreshPasskeys(memId), [memId]);
  useLiveRefresh(reload, ['user'], memId > 0);
  if (entry === undefined) return { list: undefined, reload };
  return { list: entry && entry.mem_id === memId ? entry.list : null, reload };
}

/** Adds a passkey: the options (login password first), the device's own prompt, then the server keeps it.
 *  The browser half loads only here, on the tap. */
export async function addPasskey(input: { name: string; password: string }, idempotencyKey: string): Promise<ApiResult<PasskeyItem>> {
  const options = await post<PublicKeyCredentialCreationOptionsJSON>(PATHS.passkeyOptions, { password: input.password }, { idempotencyKey: `${idempotencyKey}-o`, quiet: true });
  if (options.code !== 0 || !options.data) return options as unknown as ApiResult<PasskeyItem>;
  const { startRegistration } = await import('@simplewebauthn/browser');
  let credential: RegistrationResponseJSON;
  try {
    credential = await startRegistration({ optionsJSON: options.data });
  } catch {
    // Cancelled, timed out, or the device refused (it holds this passkey already): nothing was made.
    return { code: ERRORS.passkey_not_added.code, msg: errorMessage('passkey_not_added', wireLang()), data: null as unknown as PasskeyItem, wait: 3, time: Date.now() };
  }
  return post<PasskeyItem>(PATHS.passkeyAdd, { name: input.name, credential }, { idempotencyKey, quiet: true });
}

export function removePasskey(input: { id: number }, idempotencyKey: string): Promise<ApiResult<null>> {
  return post<null>(PATHS.passkeyRemove, { ...input }, { idempotencyKey });
}
