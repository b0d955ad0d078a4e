import { useSyncExternalStore } from 'react';
import { TOAST_MS } from '../../shared/constants';

// Toast (1500 ms by default: docs/product.md#limits). One at a time; a new one replaces the old. Only for
// small news the screen already shows ("Saved.", "Copied"); what the member must know or act on goes through
// keepNotice (page-notice.tsx), which also stays on the screen. The list of which is which:
// docs/decisions/0046-phone-polish.md.
export interface ToastState {
  id: number;
  message: string;
  kind: 'error' | 'success' | 'info';
  /** Seen but not read out: the screen keeps the same words in its own live region (page-notice.tsx). */
  silent?: boolean;
}

let current: ToastState | null = null;
let seq = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function showToast(message: string, kind: ToastState['kind'] = 'info', ms = TOAST_MS, opts: { silent?: boolean } = {}): void {
  current = { id: ++seq, message, kind, ...(opts.silent ? { silent: true } : {}) };
  emit();
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    current = null;
    emit();
  }, ms);
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

const icons = { error: '⚠', success: '✓', info: 'ℹ' } as const;

/** Two live regions, both always in the page so a screen reader is listening before the first toast:
 *  a status (role="status", polite: read when the reader is idle) for success and info, and an alert
 *  (role="alert", assertive) for errors only. One holds a toast at a time. A silent toast sits outside
 *  both: the screen's kept notice says it once. */
export function ToastLayer() {
  const toast = useSyncExternalStore(subscribe, () => current, () => current);
  const error = toast?.kind === 'error';
  const silent = toast?.silent === true;
  return (
    <div className="toast-layer">
      <div className="toast-layer__region" role="status">
        {toast && !silent && !error && <Toast key={toast.id} toast={toast} />}
      </div>
      <div className="toast-layer__region" role="alert">
        {toast && !silent && error && <Toast key={toast.id} toast={toast} />}
      </div>
      <div className="toast-layer__region" aria-hidden="true">
        {toast && silent && <Toast key={toast.id} toast={toast} />}
      </div>
    </div>
  );
}

function Toast({ toast }: { toast: ToastState }) {
  return (
    <div className="toast" data-kind={toast.kind}>
      <span aria-hidden="true">{icons[toast.kind]}</span>
      <span>{toast.message}</span>
    </div>
  );
}
