import type { ApprovalThresholdsRead, RetireResult } from '../../../shared/schemas/approval';
import { useCallback, useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { get, post, type ApiResult } from '../../lib/api';
import { db } from '../../lib/db';
import { useLiveRefresh } from '../../lib/live-refresh';
import { useOnline } from '../../lib/online';
import { API_BASE, PATHS, type Paged, type WireLang } from '../../../shared/api';
import type { CreditHolding, Order, OrderCredits } from '../../../shared/schemas/order';
import type { Certificate, Transparency } from '../../../shared/schemas/retire';

// Retirement (docs/product.md#retirement): the retire write, the caller's certificates, and the two public
// reads. A certificate and the transparency figures are kept in Dexie (public tables `certificates` and
// `public_answers`) once seen, so they open offline; the caller's list in `meta` (cleared on sign-out).

export interface RetireInput {
  project_id: number;
  tons: number;
  beneficiary: string;
  reason: string;
  hide_beneficiary: boolean;
  icc_year: number | null;
  paypwd: string;
}

export function sendRetire(input: RetireInput, key: string): Promise<ApiResult<RetireResult>> {
  return post<RetireResult>(PATHS.creditRetire, { ...input }, { idempotencyKey: key });
}

const MY_CERTIFICATES_KEY = 'my_certificates';
const TRANSPARENCY_KEY = 'transparency';

export const certificatePath = (id: string) => `/certificate/${id}`;
export const certificateHref = (id: string) => `${location.origin}${certificatePath(id)}`;
/** The certificate's PDF, made by the server in the language asked for. */
export const certificatePdfHref = (id: string, lang: WireLang) => `${API_BASE}${PATHS.publicCertificatePdf.replace(':id', encodeURIComponent(id))}?lang=${lang}`;

/** What the retire form needs: the holdings (tons held per project) and the tons pending sale per project. */
export function useRetirable(enabled: boolean) {
  const [holdings, setHoldings] = useState<CreditHolding[] | null>(null);
  const [pending, setPending] = useState<Map<number, number>>(new Map());
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    const [credits, sells] = await Promise.all([
      get<OrderCredits>(PATHS.orderCredits, { page_size: 1 }, { quiet: true, fresh: true }),
      get<Paged<Order>>(PATHS.orderLists, { side: 'sell', status: 'in_progress', page_size: 100 }, { quiet: true, fresh: true }),
    ]);
    if (credits.code !== 0) {
      setError(credits.msg);
      return;
    }
    setHoldings(credits.data.holdings);
    const map = new Map<number, number>();
    if (sells.code === 0) for (const o of sells.data.list) map.set(o.project_id, (map.get(o.project_id) ?? 0) + o.tons);
    setPending(map);
  }, []);
  useLiveRefresh(load, ['user', 'fundlogs', 'orders', 'retirements'], enabled);
  return { holdings, pending, error, reload: load };
}

/** The caller's certificates: from the server when online (kept in meta), else the kept copy. */
export function useMyCertificates(memId: number) {
  const online = useOnline();
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState('');
  const kept = useLiveQuery(async () => {
    const row = await db.meta.get(MY_CERTIFICATES_KEY);
    const v = row?.value as { mem_id: number; list: Certificate[] } | undefined;
    return v && v.mem_id === memId ? v.list : null;
  }, [memId]);
  const load = useCallback(async () => {
    const res = await get<Paged<Certificate>>(PATHS.creditRetirements, { page_size: 50 }, { quiet: true, fresh: true });
    if (res.code !== 0) {
      setError(res.msg);
      return;
    }
    setTotal(res.data.total);
    await db.meta.put({ key: MY_CERTIFICATES_KEY, value: { mem_id: memId, list: res.data.list } });
    await db.certificates.bulkPut(res.data.list);
  }, [memId]);
  useLiveRefresh(load, ['retirements'], memId > 0);
  return { list: kept, total, error, online, loading: kept === undefined };
}

export type CertificateLoad = { state: 'loading' } | { state: 'ready'; certificate: Certificate } | { state: 'missing'; message: string } | { state: 'offline' };

/** One public certificate: the kept copy at once, then the server's. */
export function useCertificate(id: string): CertificateLoad {
  const online = useOnline();
  const kept = useLiveQuery(() => db.certificates.get(id), [id]);
  const [missing, setMissing] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void (async () => {
      const res = await get<Certificate>(PATHS.publicCertificate.replace(':id', encodeURIComponent(id)), {}, { quiet: true });
      if (!live) return;
      setTried(true);
      if (res.code === 0) {
        setMissing(null);
        await db.certificates.put(res.data);
      } else if (res.code > 1000) setMissing(res.msg);
    })();
    return () => {
      live = false;
    };
  }, [id, online]);
  if (kept) return { state: 'ready', certificate: kept };
  if (missing) return { state: 'missing', message: missing };
  if (kept === undefined || (online && !tried)) return { state: 'loading' };
  return online ? { state: 'loading' } : { state: 'offline' };
}

/** How often the page asks again when no socket tells it of changes (a visitor has none). */
const TRANSPARENCY_POLL_MS = 15_000;

/** The transparency figures: the kept copy at once, refreshed on open, on the socket's invalidations of
 *  retirements and projects, and every 15 s while the page is visible. */
export function useTransparency() {
  const online = useOnline();
  const kept = useLiveQuery(async () => {
    const row = await db.public_answers.get(TRANSPARENCY_KEY);
    return row ? { data: row.value as Transparency, saved_at: row.saved_at } : null;
  }, []);
  const load = useCallback(async () => {
    const res = await get<Transparency>(PATHS.publicTransparency, {}, { quiet: true, fresh: true });
    if (res.code === 0) await db.public_answers.put({ key: TRANSPARENCY_KEY, value: res.data, saved_at: Date.now() });
  }, []);
  useLiveRefresh(load, ['retirements', 'projects', 'orders'], true);
  useEffect(() => {
    if (!online) return;
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, TRANSPARENCY_POLL_MS);
    return () => clearInterval(id);
  }, [online, load]);
  return { data: kept?.data ?? null, savedAt: kept?.saved_at ?? null, loading: kept === undefined, online };
}

/** The tons above which the member's retirement waits for an approver (docs/product.md#approvals), or null
 *  when none does: not acting for an organisation, an owner no one else can approve for, or not known
 *  (offline). The server decides again when asked; this lets the confirm sheet say where it goes. */
export function useApprovalLimit(enabled: boolean): number | null {
  const [limit, setLimit] = useState<number | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void get<ApprovalThresholdsRead>(PATHS.approvalThresholds, {}, { quiet: true, fresh: true }).then((res) => {
      if (live) setLimit(res.code === 0 && res.data.applies_to_you ? res.data.retire_tons : null);
    });
    return () => {
      live = false;
    };
  }, [enabled]);
  return limit;
}
