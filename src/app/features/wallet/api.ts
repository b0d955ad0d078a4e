import type { WithdrawResult } from '../../../shared/schemas/approval';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { db, type CachedFundLog } from '../../lib/db';
import { getBaseSettings, saveBaseSettings, type BaseSettings } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { PATHS, type Paged } from '../../../shared/api';
import { PAGE_SIZE } from '../../../shared/constants';
import type { BankCard, FundLogRow, TopupRecord, WithdrawalRecord } from '../../../shared/schemas/wallet';
import { useMemberId } from '../../lib/user-info';
import { useInvalidation } from '../../lib/live-refresh';

// The wallet's endpoints: one fetcher per endpoint, each with its hook. Writes take the Idempotency-Key of
// the user's intent (lib/intent-key.ts). Fund logs go into Dexie (table `fundlogs`, by owner) so they read
// offline; the other lists live in memory and load again when the screen opens. The member's info (balances,
// locks) is lib/user-info.ts, shared with the order and account screens.

/** The tables of socket invalidations that mean "your money or account changed". */
const WALLET_TABLES = ['user', 'fundlogs'];

// ---------------------------------------------------------------- GET login/baseconfig (limits)

export type WalletLimits = BaseSettings['limits'];

/** Withdrawal and top-up limits from baseconfig (stored at app start); fetched here if the app has none yet. */
export function useLimits(): WalletLimits | null {
  const [limits, setLimits] = useState<WalletLimits | null>(() => getBaseSettings()?.limits ?? null);
  useEffect(() => {
    if (limits) return;
    let live = true;
    void get<BaseSettings>(PATHS.baseconfig, {}, { quiet: true }).then((res) => {
      if (res.code !== 0 || !res.data) return;
      saveBaseSettings(res.data);
      if (live) setLimits(res.data.limits);
    });
    return () => {
      live = false;
    };
  }, [limits]);
  return limits;
}

// ---------------------------------------------------------------- user/card

export function fetchCard(): Promise<ApiResult<BankCard | null>> {
  return get<BankCard | null>(PATHS.userCard, {}, { quiet: true });
}

export interface CardState {
  card: BankCard | null | undefined; // undefined while loading or when it could not be loaded
  error: string;
  reload: () => void;
}

export function useCard(): CardState {
  const memId = useMemberId();
  const online = useOnline();
  const [state, setState] = useState<{ card: BankCard | null | undefined; error: string }>({ card: undefined, error: '' });
  const reload = useCallback(() => {
    void fetchCard().then((res) => setState(res.code === 0 ? { card: res.data ?? null, error: '' } : (s) => ({ ...s, error: res.msg })));
  }, []);
  useEffect(() => {
    if (memId > 0 && online) reload();
  }, [memId, online, reload]);
  useInvalidation(WALLET_TABLES, reload);
  return { ...state, reload };
}

export interface CardInput {
  bank_name: string;
  account_no: string;
  holder_name: string;
  paynow: string;
}

export function bindCard(input: CardInput, idempotencyKey: string): Promise<ApiResult<BankCard>> {
  return post<BankCard>(PATHS.userCard, { ...input }, { idempotencyKey });
}

// ---------------------------------------------------------------- paged lists held in memory

interface PagedState<T> {
  items: T[];
  total: number | null;
  page: number;
  loading: boolean;
  error: string;
}

/** A newest-first list loaded page by page; page 1 again on reload (new rows come first). */
function usePagedList<T extends { id: number }>(fetchPage: (page: number) => Promise<ApiResult<Paged<T>>>) {
  const memId = useMemberId();
  const online = useOnline();
  const [state, setState] = useState<PagedState<T>>({ items: [], total: null, page: 0, loading: false, error: '' });
  const busy = useRef(false);

  const load = useCallback(
    async (page: number) => {
      if (busy.current) return;
      busy.current = true;
      setState((s) => ({ ...s, loading: true }));
      const res = await fetchPage(page);
      busy.current = false;
      setState((s) => {
        if (res.code !== 0 || !res.data) return { ...s, loading: false, error: res.msg };
        // Page 1 starts the list again (new rows come first); later pages append, and a row that moved to the
        // next page because new ones arrived is not shown twice.
        const seen = new Set(res.data.list.map((r) => r.id));
        const items = page === 1 ? res.data.list : [...s.items.filter((r) => !seen.has(r.id)), ...res.data.list];
        return { items, total: res.data.total, page, loading: false, error: '' };
      });
    },
    [fetchPage],
  );

  const reload = useCallback(() => void load(1), [load]);
  useEffect(() => {
    if (memId > 0 && online) reload();
  }, [memId, online, reload]);
  useInvalidation(WALLET_TABLES, reload);

  const hasMore = state.total !== null && state.items.length < state.total;
  const loadMore = useCallback(() => {
    if (online && hasMore) void load(state.page + 1);
  }, [online, hasMore, load, state.page]);
  return { ...state, hasMore, loadMore, reload };
}

// ---------------------------------------------------------------- wallet/topup, wallet/topups

export function requestTopup(input: { amount: number; method: 'paynow' | 'bank'; reference?: string }, idempotencyKey: string): Promise<ApiResult<TopupRecord>> {
  return post<TopupRecord>(PATHS.walletTopup, { ...input }, { idempotencyKey });
}

export function fetchTopups(page: number): Promise<ApiResult<Paged<TopupRecord>>> {
  return get<Paged<TopupRecord>>(PATHS.walletTopups, { page, page_size: PAGE_SIZE }, { quiet: true });
}

export function useTopups() {
  return usePagedList(fetchTopups);
}

// ---------------------------------------------------------------- wallet/withdraw, wallet/withdrawals

export function requestWithdrawal(
  input: { amount: number; password: string; method?: 'bank' | 'paynow' },
  idempotencyKey: string,
): Promise<ApiResult<WithdrawResult>> {
  return post<WithdrawResult>(PATHS.walletWithdraw, { ...input }, { idempotencyKey });
}

export function fetchWithdrawals(page: number): Promise<ApiResult<Paged<WithdrawalRecord>>> {
  return get<Paged<WithdrawalRecord>>(PATHS.walletWithdrawals, { page, page_size: PAGE_SIZE }, { quiet: true });
}

export function useWithdrawals() {
  return usePagedList(fetchWithdrawals);
}

// ---------------------------------------------------------------- wallet/fundlogs (Dexie)

/** A fund log as the device keeps it: the API row plus whose it is (the cache may outlive a session). */
export type StoredFundLog = CachedFundLog & FundLogRow;

/** Fetches one page of fund logs (optionally of one kind) into Dexie; the total, or null when unreachable. */
export async function fetchFundLogs(memId: number, page: number, kind = ''): Promise<number | null> {
  const res = await get<Paged<FundLogRow>>(PATHS.walletFundlogs, { page, page_size: PAGE_SIZE, ...(kind ? { kind } : {}) }, { quiet: true });
  if (res.code !== 0 || !res.data) return null;
  const rows: StoredFundLog[] = res.data.list.map((row) => ({ ...row, owner: memId }));
  await db.fundlogs.bulkPut(rows);
  return res.data.total;
}

/** Newest first; rows of one ledger entry keep their id order. */
export function compareFundLogs(a: { created_at_ms: number; id: number }, b: { created_at_ms: number; id: number }): number {
  return b.created_at_ms - a.created_at_ms || b.id - a.id;
}

/**
 * The member's fund logs from Dexie, newest first, optionally of one kind; pages come from the API into
 * Dexie as the end of the list comes near, so what was seen stays readable offline.
 */
export function useFundLogs(kind: string) {
  const memId = useMemberId();
  const online = useOnline();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [server, setServer] = useState<{ kind: string; pages: number; total: number | null; loading: boolean }>({
    kind,
    pages: 0,
    total: null,
    loading: false,
  });
  const busy = useRef(false);

  const rows = useLiveQuery(async () => {
    const mine = kind ? db.fundlogs.where('[owner+kind]').equals([memId, kind]) : db.fundlogs.where('owner').equals(memId);
    return ((await mine.toArray()) as StoredFundLog[]).sort(compareFundLogs);
  }, [kind, memId]);

  const fetchPage = useCallback(
    async (page: number) => {
      if (busy.current || memId <= 0) return;
      busy.current = true;
      setServer((s) => ({ ...s, loading: true }));
      const total = await fetchFundLogs(memId, page, kind);
      busy.current = false;
      setServer((s) => (total === null ? { ...s, loading: false } : { kind, loading: false, pages: s.kind === kind ? Math.max(s.pages, page) : page, total }));
    },
    [memId, kind],
  );

  useEffect(() => {
    setLimit(PAGE_SIZE);
    if (online) void fetchPage(1);
  }, [fetchPage, online]);
  useInvalidation(WALLET_TABLES, () => void fetchPage(1));

  const current = server.kind === kind ? server : { pages: 0, total: null, loading: server.loading };
  const serverHasMore = current.total !== null && current.pages * PAGE_SIZE < current.total;
  const loadMore = () => {
    setLimit((l) => l + PAGE_SIZE);
    if (online && serverHasMore) void fetchPage(current.pages + 1);
  };
  return {
    logs: rows?.slice(0, limit),
    hasMore: (rows !== undefined && rows.length > limit) || (online && serverHasMore),
    loading: server.loading && (rows === undefined || rows.length <= limit),
    loadMore,
    online,
  };
}
