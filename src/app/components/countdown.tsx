import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { Plural } from '@lingui/react/macro';
import { serverNow } from '../lib/server-time';

// A countdown to a server timestamp (epoch ms). The server's clock is the only clock for deadlines, so the
// remaining time is measured against serverNow(), not this device's clock. Calls onDone once at zero.

export function splitDuration(ms: number): { d: number; h: number; m: number; s: number } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return { d: Math.floor(total / 86_400), h: Math.floor((total % 86_400) / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

const pad = (n: number) => String(n).padStart(2, '0');

// Inline so the kit component carries its own look; a caller can restyle through className.
const styles: Record<'root' | 'days' | 'num', CSSProperties> = {
  root: { display: 'inline-flex', alignItems: 'baseline', gap: '0.4em', fontVariantNumeric: 'tabular-nums' },
  days: { fontWeight: 700 },
  num: { fontWeight: 700, fontSize: '1.25em' },
};

export function Countdown({ to, onDone, className }: { to: number; onDone?: () => void; className?: string }) {
  const [now, setNow] = useState(serverNow);
  const remaining = Math.max(0, to - now);
  const done = useRef(false);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  useEffect(() => {
    done.current = false;
    setNow(serverNow());
    if (to - serverNow() <= 0) return;
    const id = setInterval(() => {
      const n = serverNow();
      setNow(n);
      if (n >= to) clearInterval(id);
    }, 1000);
    return () => clearInterval(id);
  }, [to]);

  useEffect(() => {
    if (remaining === 0 && !done.current) {
      done.current = true;
      onDoneRef.current?.();
    }
  }, [remaining]);

  const { d, h, m, s } = splitDuration(remaining);
  // As a clock reads: "29:58", "1:59:58", and "3 days 05:12:09" when it is days away.
  const clock = h > 0 || d > 0 ? `${d > 0 ? pad(h) : h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  return (
    <span role="timer" className={className ? `countdown ${className}` : 'countdown'} style={styles.root} data-testid="countdown">
      {d > 0 && (
        <span className="countdown__days" style={styles.days}>
          <Plural value={d} one="# day" other="# days" />
        </span>
      )}
      <span className="countdown__num" style={styles.num}>
        {clock}
      </span>
    </span>
  );
}
