import { useEffect, useRef, type ReactNode } from 'react';
import './sheet.css';

/**
 * A bottom sheet on the native <dialog> (modal: focus stays inside, Escape closes, the page behind is inert,
 * and focus returns to what opened it). A tap on the backdrop closes it too. The content is mounted only
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
