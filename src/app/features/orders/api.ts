import { useCallback, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { CREDITS_KEY, db, MEMBERSHIP_KEY, type CachedOrder } from '../../lib/db';
import { refreshProject } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { getSession } from '../../lib/storage';
import { refreshUserInfo } from '../../lib/user-info';
import { useLiveRefresh } from '../../lib/live-refresh';
import { PATHS, type Paged } from '../../../shared/api';
import { ERRORS } from '../../../shared/errors';
import type { Order, OrderCredits, OrderSide, OrderStatus } from '../../../shared/schemas/order';
import type { Membership } from '../../../shared/schemas/user';
import { orderInTab, type OrderTab } from './order-calc';

// The order endpoints, one fetcher each, and the hooks the screens read. Orders are cached in the Dexie
// `orders` table (the whole Order record plus the indexed id / side / status / created_at_ms); the carbon
// credit holdings and movements in `meta` under CREDITS_KEY (one snapshot per user), so both read offline.

export const ORDERS_PAGE_SIZE = 50;

export type StoredOrder = CachedOrder & Order;

interface CachedCredits {
  mem_id: number;
  data: OrderCredits;
  saved_at: number;
}

const toCached = (o: Order): StoredOrder => ({ ...o });

// ---------------------------------------------------------------- reads

/** The server query of a tab: the nearest single filter; the screen narrows it further from the cache. */
export function tabQuery(tab: OrderTab): { side?: OrderSide; status?: OrderStatus } {
  if (tab === 'sell') return { side: 'sell' };
  if (tab === 'pending') return { side: 'buy', status: 'pending_final_payment' };
  if (tab === 'all') return {};
  return { side: 'buy' };
}

/** GET order/lists into Dexie. A full first page of "all" replaces the cache (orders gone server-side go). */
export async function refreshOrders(tab: OrderTab, page = 1): Promise<Paged<Order> | null> {
  const res = await get<Paged<Order>>(PATHS.orderLists, { ...tabQuery(tab), page, page_size: ORDERS_PAGE_SIZE }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  const list = res.data.list;
  await db.transaction('rw', db.orders, async () => {
    if (tab === 'all' && page === 1 && res.data.total <= list.length) {
      const keep = new Set(list.map((o) => o.id));
      const stale = (await db.orders.toCollection().primaryKeys()).filter((id) => !keep.has(id));
      await db.orders.bulkDelete(stale);
    }
    await db.orders.bulkPut(list.map(toCached));
  });
  return res.data;
}

/** GET order/detail into Dexie. */
export async function refreshOrder(id: number): Promise<Order | null> {
  const res = await get<Order>(PATHS.orderDetail, { id }, { quiet: true });
  if (res.code === ERRORS.not_found.code) await db.orders.delete(id);
  if (res.code !== 0 || !res.data) return null;
  await db.orders.put(toCached(res.data));
  return res.data;
}

/** GET order/credits (holdings and the newest movements) into meta. */
export async function refreshCredits(memId: number): Promise<ApiResult<OrderCredits>> {
  const res = await get<OrderCredits>(PATHS.orderCredits, { page: 1, page_size: ORDERS_PAGE_SIZE }, { quiet: true });
  if (res.code === 0 && res.data) await db.meta.put({ key: CREDITS_KEY, value: { mem_id: memId, data: res.data, saved_at: Date.now() } satisfies CachedCredits });
  return res;
}

export interface CachedMembership {
  mem_id: number;
  data: Membership;
  saved_at: number;
}

/** GET user/membership (the grade ladder from the server's configuration, and this member's progress) into meta. */
export async function refreshMembership(memId: number): Promise<ApiResult<Membership>> {
  const res = await get<Membership>(PATHS.userMembership, {}, { quiet: true });
  if (res.code === 0 && res.data) await db.meta.put({ key: MEMBERSHIP_KEY, value: { mem_id: memId, data: res.data, saved_at: Date.now() } satisfies CachedMembership });
  return res;
}

// ---------------------------------------------------------------- writes

export interface WriteOutcome {
  ok: boolean;
  order: Order | null;
  msg: string;
  code: number;
}

/** After a successful write: cache the order, refresh the user (balances, grade) and the project. */
async function afterWrite(res: ApiResult<Order>): Promise<WriteOutcome> {
  if (res.code !== 0 || !res.data) return { ok: false, order: null, msg: res.msg, code: res.code };
  const order = res.data;
  await db.orders.put(toCached(order));
  void refreshUserInfo();
  void refreshProject(order.project_id);
  return { ok: true, order, msg: res.msg, code: 0 };
}

export interface TonsInput {
  project_id: number;
  tons: number;
  password: string;
}

/** POST order/buy. */
export async function placeBuy(input: TonsInput, idempotencyKey: string): Promise<WriteOutcome> {
  return afterWrite(await post<Order>(PATHS.orderBuy, { ...input }, { idempotencyKey }));
}

/** POST order/book. */
export async function placeBooking(input: TonsInput, idempotencyKey: string): Promise<WriteOutcome> {
  return afterWrite(await post<Order>(PATHS.orderBook, { ...input }, { idempotencyKey }));
}

/** POST order/finalpay. */
export async function payFinalBalance(input: { order_id: number; password: string }, idempotencyKey: string): Promise<WriteOutcome> {
  return afterWrite(await post<Order>(PATHS.orderFinalpay, { ...input }, { idempotencyKey }));
}

/** POST order/sell. */
export async function placeSale(input: TonsInput, idempotencyKey: string): Promise<WriteOutcome> {
  const out = await afterWrite(await post<Order>(PATHS.orderSell, { ...input }, { idempotencyKey }));
  if (out.ok) void refreshCredits(getSession().login.mem_id);
  return out;
}

// ---------------------------------------------------------------- hooks

/** Orders of a tab from Dexie, newest first; pages are fetched from the API as the list is scrolled. */
export function useOrders(tab: OrderTab, enabled: boolean) {
  const online = useOnline();
  const rows = useLiveQuery(async () => {
    const all = (await db.orders.orderBy('created_at_ms').reverse().toArray()) as StoredOrder[];
    return all.filter((o) => orderInTab(o, tab));
  }, [tab]);
  const [state, setState] = useState<{ tab: OrderTab; pages: number; total: number | null; loading: boolean; answered: boolean }>({
    tab,
    pages: 0,
    total: null,
    loading: false,
    answered: false,
  });
  const current = state.tab === tab ? state : { tab, pages: 0, total: null, loading: false, answered: false };
  if (state.tab !== tab) setState(current);

  const fetchPage = useCallback(
    async (page: number) => {
      setState((s) => (s.tab === tab ? { ...s, loading: true } : s));
      const res = await refreshOrders(tab, page);
      setState((s) => {
        if (s.tab !== tab) return s;
        if (!res) return { ...s, loading: false };
        return { ...s, loading: false, answered: true, pages: Math.max(s.pages, page), total: res.total };
      });
    },
    [tab],
  );
  const reload = useCallback(() => fetchPage(1), [fetchPage]);
  useLiveRefresh(reload, ['orders'], enabled);

  const hasMore = online && current.total !== null && current.pages * ORDERS_PAGE_SIZE < current.total;
  const loadMore = useCallback(() => {
    if (hasMore && !current.loading) void fetchPage(current.pages + 1);
  }, [hasMore, current.loading, current.pages, fetchPage]);
  return { orders: rows, hasMore, loading: current.loading, loadMore, answered: current.answered, reload };
}


/** Credit holdings and movements of the signed-in user (meta CREDITS_KEY), refreshed on open and invalidation. */
export function useCredits(memId: number, enabled: boolean) {
  const [error, setError] = useState('');
  const entry = useLiveQuery(async () => ((await db.meta.get(CREDITS_KEY))?.value as CachedCredits | undefined) ?? null, []);
  const load = useCallback(async () => {
    const res = await refreshCredits(memId);
    setError(res.code === 0 ? '' : res.msg);
  }, [memId]);
  useLiveRefresh(load, ['orders', 'fundlogs', 'user'], enabled && memId > 0);
  const mine = entry === undefined ? undefined : entry && entry.mem_id === memId ? entry : null;
  return { credits: mine?.data, savedAt: mine?.saved_at, loading: entry === undefined, error };
}


/** The grade ladder and this member's progress (meta MEMBERSHIP_KEY), refreshed on open and when orders or the user change. */
export function useMembership(memId: number) {
  const entry = useLiveQuery(async () => ((await db.meta.get(MEMBERSHIP_KEY))?.value as CachedMembership | undefined) ?? null, []);
  const load = useCallback(async () => void (await refreshMembership(memId)), [memId]);
  useLiveRefresh(load, ['orders', 'user'], memId > 0);
  const mine = entry === undefined ? undefined : entry && entry.mem_id === memId ? entry : null;
  return { membership: mine?.data, savedAt: mine?.saved_at };
}
