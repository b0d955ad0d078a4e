import { useCallback, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { db } from '../../lib/db';
import { useLiveRefresh } from '../../lib/live-refresh';
import { useOnline } from '../../lib/online';
import { PATHS, type Paged } from '../../../shared/api';
import type { OffsetPlan, OffsetStatus } from '../../../shared/schemas/offset';

// Monthly offset plans (docs/product.md#monthly-offset): the member's list, kept in Dexie's meta (a user
// table, wiped on sign-out) so it reads offline, and the three writes, each with the intent's key.

const OFFSET_PLANS_KEY = 'offset_plans';

export interface PlanFields {
  tons: number;
  day: number;
  password: string;
}

export function sendCreate(input: PlanFields & { project_id: number }, key: string): Promise<ApiResult<OffsetPlan>> {
  return post<OffsetPlan>(PATHS.offsetCreate, { ...input }, { idempotencyKey: key });
}

export function sendChange(input: PlanFields & { id: number }, key: string): Promise<ApiResult<OffsetPlan>> {
  return post<OffsetPlan>(PATHS.offsetChange, { ...input }, { idempotencyKey: key });
}

export function sendStatus(input: { id: number; status: OffsetStatus }, key: string): Promise<ApiResult<OffsetPlan>> {
  return post<OffsetPlan>(PATHS.offsetStatus, { ...input }, { idempotencyKey: key });
}

/** A plan the server answered: put into the kept list at once, so the list shows it before its refetch. */
export async function keepPlan(memId: number, plan: OffsetPlan): Promise<void> {
  const row = await db.meta.get(OFFSET_PLANS_KEY);
  const v = row?.value as { mem_id: number; list: OffsetPlan[] } | undefined;
  const list = v && v.mem_id === memId ? v.list.filter((p) => p.id !== plan.id) : [];
  await db.meta.put({ key: OFFSET_PLANS_KEY, value: { mem_id: memId, list: [plan, ...list].sort((a, b) => b.id - a.id) } });
}

/** The member's plans: from the server when online (kept in meta), else the kept copy. */
export function useOffsetPlans(memId: number) {
  const online = useOnline();
  const [error, setError] = useState('');
  const kept = useLiveQuery(async () => {
    const row = await db.meta.get(OFFSET_PLANS_KEY);
    const v = row?.value as { mem_id: number; list: OffsetPlan[] } | undefined;
    return v && v.mem_id === memId ? v.list : null;
  }, [memId]);
  const load = useCallback(async () => {
    const res = await get<Paged<OffsetPlan>>(PATHS.offsetLists, { page_size: 50 }, { quiet: true, fresh: true });
    if (res.code !== 0) {
      setError(res.msg);
      return;
    }
    setError('');
    await db.meta.put({ key: OFFSET_PLANS_KEY, value: { mem_id: memId, list: res.data.list } });
  }, [memId]);
  useLiveRefresh(load, ['offsets', 'orders'], memId > 0);
  return { list: kept, error, online };
}
