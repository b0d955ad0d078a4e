import { useCallback, useState } from 'react';
import { get } from './api';
import { useLiveRefresh } from './live-refresh';
import { PATHS } from '../../shared/api';
import type { OrderLimits } from '../../shared/schemas/order';

// The caller's room on a project (remaining monthly and total tons), shown by the project detail and used
// by the buy and book screens to bound the tons input.

/** GET order/limits: the caller's remaining monthly and total tons on a project (online only). */
export async function fetchLimits(projectId: number): Promise<OrderLimits | null> {
  const res = await get<OrderLimits>(PATHS.orderLimits, { project_id: projectId }, { quiet: true });
  return res.code === 0 ? res.data : null;
}

/** The caller's limits on a project, fetched when online and again when the socket says orders changed. */
export function useLimits(projectId: number, enabled: boolean) {
  const [limits, setLimits] = useState<OrderLimits | null>(null);
  const load = useCallback(async () => {
    if (projectId > 0) setLimits(await fetchLimits(projectId));
  }, [projectId]);
  useLiveRefresh(load, ['orders'], enabled && projectId > 0);
  return { limits, reload: load };
}
