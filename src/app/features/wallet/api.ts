import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { db, type CachedFundLog } from '../../lib/db';
import { onInvalidation } from '../../lib/sync';
import { getBaseSettings, saveBaseSettings, useSession, type BaseSettings } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { PATHS, type Paged } from '../../../shared/api';
import { PAGE_SIZE } from '../../../shared/constants';
import type { UserInfo } from '../../../shared/schemas/user';
import type { BankCard, FundLogRow, TopupRecord, WithdrawalRecord } from '../../../shared/schemas/wallet';
import { refreshUserInfo } from '../profile/profile-page';

// The wallet's endpoints: one fetcher per endpoint, each with its hook. Writes take the Idempotency-Key of
// the user's intent (intent-key.ts). Fund logs go into Dexie (table `fundlogs`) so they read offline; the
// other lists live in memory and load again when the screen opens.

export { refreshUserInfo };

/** The tables of socket invalidations that mean "your money or account changed". */
const WALLET_TABLES = ['user', 'fundlogs'];

function useInvalidation(listener: () => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => onInvalidation((tables) => tables.some((t) => WALLET_TABLES.includes(t)) && latest.current()), []);
}

/** The signed-in member's id, 0 for guests and visitors. */
export function useMemberId(): number {
  const session = useSession();
  return session.isLogin ? session.login.mem_id : 0;
}

// ---------------------------------------------------------------- GET user/info (cached by the profile tab)

// The profile tab keeps the last user info in Dexie meta under this key (profile-page.tsx).
const USER_INFO_KEY = 'user_info';

export interface UserInfoState {
  info: UserInfo | undefined; // undefined until known
  loading: boolean;
}

/** The member's info from the device cache, refreshed on open, when back online and on socket invalidations. */
export function useUserInfo(): UserInfoState {
  const memId = useMemberId();
  const online = useOnline();
  const cached = useLiveQuery(async () => (await db.meta.get(USER_INFO_KEY)) ?? null, []);
  const info = (cached?.value as { info?: UserInfo } | undefined)?.info;
  useEffect(() => {
    if (memId > 0 && online) void refreshUserInfo();
  }, [memId, online]);
  useInvalidation(() => void refreshUserInfo());
  const mine = info && info.mem_id === memId ? info : undefined;
  return { info: mine, loading: cached === undefined };
}

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
  useInvalidation(reload);
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

// ---------------------------------------------------------------- user/profile, user/withdpwd, user/loginpwd

export interface ProfileInput {
  first_name: string;
  last_name: string;
  mobile: string;
  ic_number: string;
}

export function saveProfile(input: ProfileInput, idempotencyKey: string): Promise<ApiResult<ProfileInput & { realname: string }>> {
  return post(PATHS.userProfile, { ...input }, { idempotencyKey });
}

export function setWithdrawPassword(input: { password: string; repassword: string; login_password: string }, idempotencyKey: string): Promise<ApiResult<null>> {
  return post<null>(PATHS.userWithdpwd, { ...input }, { idempotencyKey });
}

export function changeLoginPassword(input: { old_password: string; password: string; repassword: string }, idempotencyKey: string): Promise<ApiResult<null>> {
  return post<null>(PATHS.userLoginpwd, { ...input }, { idempotencyKey });
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
  useInvalidation(reload);

  const hasMore = state.total !== null && state.items.length < state.total;
  const loadMore = useCallback(() => {
    if (online && hasMore) void load(state.page + 1);
  }, [online, hasMore, load, state.page]);
  return { ...state, hasMore, loadMore, reload };
}

// ---------------------------------------------------------------- wallet/topup, wallet/topups

export function requestTopup(input: { amount: number; method: 'paynow' | 'bank'; reference: string }, idempotencyKey: string): Promise<ApiResult<TopupRecord>> {
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
): Promise<ApiResult<WithdrawalRecord>> {
  return post<WithdrawalRecord>(PATHS.walletWithdraw, { ...input }, { idempotencyKey });
}

export function fetchWithdrawals(page: number): Promise<ApiResult<Paged<WithdrawalRecord>>> {
  return get<Paged<WithdrawalRecord>>(PATHS.walletWithdrawals, { page, page_size: PAGE_SIZE }, { quiet: true });
}

export function useWithdrawals() {
  return usePagedList(fetchWithdrawals);
}

// ---------------------------------------------------------------- wallet/fundlogs (Dexie)

/** A fund log as the device keeps it: the API row plus whose it is (the cache may outlive a session). */
export type StoredFundLog = CachedFundLog & FundLogRow & { owner: number };

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
    const all = kind ? await db.fundlogs.where('kind').equals(kind).toArray() : await db.fundlogs.toArray();
    return (all as StoredFundLog[]).filter((r) => r.owner === memId).sort(compareFundLogs);
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
  useInvalidation(() => void fetchPage(1));

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
