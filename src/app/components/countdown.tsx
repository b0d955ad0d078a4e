import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useLingui } from '@lingui/react/macro';
import { serverNow } from '../lib/server-time';

// A countdown to a server timestamp (epoch ms). The server's clock is the only clock for deadlines, so the
// remaining time is measured against serverNow(), not this device's clock. Calls onDone once at zero.

export function splitDuration(ms: number): { d: number; h: number; m: number; s: number } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return { d: Math.floor(total / 86_400), h: Math.floor((total % 86_400) / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

const pad = (n: number) => String(n).padStart(2, '0');

// Inline so the kit component carries its own look; a caller can restyle through className.
const styles: Record<'root' | 'part' | 'num' | 'unit', CSSProperties> = {
  root: { display: 'inline-flex', alignItems: 'baseline', gap: '0.5em', fontVariantNumeric: 'tabular-nums' },
  part: { display: 'inline-flex', alignItems: 'baseline', gap: '0.15em' },
  num: { fontWeight: 700, fontSize: '1.25em' },
  unit: { fontSize: '0.8em', opacity: 0.8 },
};

export function Countdown({ to, onDone, className }: { to: number; onDone?: () => void; className?: string }) {
  const { t } = useLingui();
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
  const parts = [
    { key: 'd', value: String(d), unit: t({ message: 'd', context: 'countdown: days' }) },
    { key: 'h', value: pad(h), unit: t({ message: 'h', context: 'countdown: hours' }) },
    { key: 'm', value: pad(m), unit: t({ message: 'm', context: 'countdown: minutes' }) },
    { key: 's', value: pad(s), unit: t({ message: 's', context: 'countdown: seconds' }) },
  ];
  return (
    <span role="timer" className={className ? `countdown ${className}` : 'countdown'} style={styles.root} data-testid="countdown">
      {parts.map((p) => (
        <span key={p.key} className="countdown__part" style={styles.part}>
          <span className="countdown__num" style={styles.num}>
            {p.value}
          </span>
          <span className="countdown__unit" style={styles.unit}>
            {p.unit}
          </span>
        </span>
      ))}
    </span>
  );
}
