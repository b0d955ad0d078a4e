import { useSyncExternalStore } from 'react';
import { useLingui } from '@lingui/react/macro';
import { showToast, type ToastState } from './toast';
import './page-notice.css';

// News the member must know or act on (docs/decisions/0046-phone-polish.md, "Toasts"): a request sent for
// approval, a withdrawal submitted, a refusal that blocks them, a live notice, a session that ended. It
// shows as the usual 1.5 s toast near the thumb and also stays on the screen it lands on, in the page's
// flow right under the nav bar (NavBar draws it), until the member leaves that screen or dismisses it.
// Small news the screen already shows ("Saved." beside the saved value, "Copied") stays a toast alone.

export interface KeptNotice {
  id: number;
  message: string;
  kind: ToastState['kind'];
  /** The screen it belongs to: the current one, or where the action is about to lead (a withdrawal
   *  sent for approval lands on the approvals screen). Leaving that screen ends the notice. */
  path: string;
}

let kept: KeptNotice | null = null;
let seq = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

const here = () => (typeof location === 'undefined' ? '/' : location.pathname);

/** Say it now (a toast, which screen readers skip: the notice below is their copy) and keep it on `path`. */
export function keepNotice(message: string, kind: ToastState['kind'] = 'success', opts: { path?: string; toastMs?: number } = {}): void {
  kept = { id: ++seq, message, kind, path: opts.path ?? here() };
  emit();
  showToast(message, kind, opts.toastMs, { silent: true });
}

export function dismissNotice(): void {
  if (!kept) return;
  kept = null;
  emit();
}

/** A new attempt at what was refused: the refusal's notice goes (news of a success stays). */
export function clearKeptError(): void {
  if (kept?.kind === 'error') dismissNotice();
}

/** After each route change: a notice ends once the member is on another screen than its own. */
export function noticeOnRoute(pathname: string): void {
  if (kept && kept.path !== pathname) dismissNotice();
}

export function currentNotice(): KeptNotice | null {
  return kept;
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The kept notice of the screen at `pathname`, if any: a status, or an alert for a refusal. Its region is
 *  the notice itself (inserted with its text), read once; the toast beside it is hidden from readers. */
export function PageNotice({ pathname }: { pathname: string }) {
  const { t } = useLingui();
  const notice = useSyncExternalStore(subscribe, currentNotice, currentNotice);
  if (!notice || notice.path !== pathname) return null;
  const error = notice.kind === 'error';
  return (
    <div key={notice.id} className={`page-notice notice${error ? ' notice--danger' : notice.kind === 'success' ? ' notice--ok' : ''}`} role={error ? 'alert' : 'status'} data-testid="page-notice" data-kind={notice.kind}>
      <p className="page-notice__text">{notice.message}</p>
      <button type="button" className="page-notice__close" onClick={dismissNotice} aria-label={t`Dismiss`} data-testid="page-notice-close">
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
