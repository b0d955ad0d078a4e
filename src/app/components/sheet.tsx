import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './sheet.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first to the last: the native modal
 *  dialog would let focus leave to the browser's own controls, and a keyboard user lose the sheet. */
function wrapFocus(e: KeyboardEvent<HTMLDialogElement>) {
  if (e.key !== 'Tab') return;
  const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && (document.activeElement === first || !e.currentTarget.contains(document.activeElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * A bottom sheet on the native <dialog> (modal: focus stays inside, wrapping from the last control to the
 * first, Escape closes, the page behind is inert, and focus returns to what opened it). A tap on the backdrop closes it too. The content is mounted only
 * while the sheet is open, so it starts fresh each time.
 */
export function Sheet({
  open,
  onClose,
  labelledBy,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // The field the sheet is for takes focus ahead of its close button, so the keyboard opens on it.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="sheet"
      aria-labelledby={labelledBy}
      data-testid={testId}
      onClose={onClose}
      onKeyDown={wrapFocus}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A tap on the backdrop (the dialog element itself, outside its content) closes the sheet.
        if (e.target === ref.current) onClose();
      }}
    >
      {open && <div className="sheet__body">{children}</div>}
    </dialog>
  );
}
