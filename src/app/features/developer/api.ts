import { useCallback, useState } from 'react';
import { get, post } from '../../lib/api';
import { useLiveRefresh } from '../../lib/live-refresh';
import { useMemberId } from '../../lib/user-info';
import { PATHS } from '../../../shared/api';
import type { ApiKeyMode, ApiKeyScope } from '../../../shared/schemas/developer';
import type * as v from 'valibot';
import type { apiKeyCreatedSchema, apiKeyListSchema, sandboxBalanceSchema } from '../../../shared/schemas/developer';

// The Developers screen's reads and writes (docs/product.md#integrators). The key list is not kept on the
// device: it is a security screen, read fresh each time it opens (and after each change).

export type ApiKeyList = v.InferOutput<typeof apiKeyListSchema>;
export type ApiKeyCreated = v.InferOutput<typeof apiKeyCreatedSchema>;
type SandboxBalance = v.InferOutput<typeof sandboxBalanceSchema>;

/** The account's keys and sandbox balances: undefined while loading, null when they could not be read. */
export function useApiKeys(): { keys: ApiKeyList | null | undefined; reload: () => Promise<void> } {
  const member = useMemberId() > 0;
  const [keys, setKeys] = useState<ApiKeyList | null | undefined>(undefined);
  const reload = useCallback(async () => {
    const res = await get<ApiKeyList>(PATHS.developerKeys, {}, { quiet: true });
    setKeys(res.code === 0 && res.data ? res.data : null);
  }, []);
  useLiveRefresh(reload, ['user'], member);
  return { keys, reload };
}

export interface KeyInput {
  name: string;
  mode: ApiKeyMode;
  scopes: ApiKeyScope[];
  expires_at: number | null;
  password: string;
}

/** Making and rotating a key answer its secret: no Idempotency-Key (the server keeps no copy of it). */
export const createApiKey = (input: KeyInput) => post<ApiKeyCreated>(PATHS.developerKeys, { ...input });
export const rotateApiKey = (input: { id: number; overlap_hours: number; password: string }) => post<ApiKeyCreated>(PATHS.developerKeysRotate, { ...input });
export const revokeApiKey = (input: { id: number }, idempotencyKey: string) => post<null>(PATHS.developerKeysRevoke, { ...input }, { idempotencyKey });
export const topupSandbox = (_input: Record<string, never>, idempotencyKey: string) => post<SandboxBalance>(PATHS.developerSandboxTopup, {}, { idempotencyKey });
