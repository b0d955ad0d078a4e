import { useEffect, useRef, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { SCROLL_BOTTOM_DISTANCE_PX } from '../../shared/constants';

// An infinite list: asks for the next page when its end comes within 80 px of the viewport
// (docs/product.md#limits).
export function InfiniteList({
  children,
  hasMore,
  loading,
  onLoadMore,
  empty,
  isEmpty,
}: {
  children: ReactNode;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  empty?: ReactNode;
  isEmpty: boolean;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef({ hasMore, loading, onLoadMore });
  latest.current = { hasMore, loading, onLoadMore };
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver(
      (entries) => {
        const { hasMore: more, loading: busy, onLoadMore: load } = latest.current;
        if (entries.some((e) => e.isIntersecting) && more && !busy) load();
      },
      { rootMargin: `0px 0px ${SCROLL_BOTTOM_DISTANCE_PX}px 0px` },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);
  return (
    <div>
      {isEmpty && !loading ? (empty ?? <p className="empty"><Trans>Nothing here yet.</Trans></p>) : children}
      <div ref={sentinel} className="list-foot" aria-live="polite">
        {loading ? <Trans>Loading…</Trans> : !hasMore && !isEmpty ? <Trans>That is everything.</Trans> : null}
      </div>
    </div>
  );
}
