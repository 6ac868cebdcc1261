// A modal confirmation built on <dialog>: focus is trapped, Escape dismisses, focus returns.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './ConfirmDialog.css';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  dismissLabel: string;
  onConfirm(): void;
  onDismiss(): void;
}

export function ConfirmDialog({ open, title, children, confirmLabel, dismissLabel, onConfirm, onDismiss }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} onClose={onDismiss}>
      <h2 id={titleId}>{title}</h2>
      <div className="confirm-dialog__body">{children}</div>
      <div className="confirm-dialog__actions">
        <button type="button" onClick={onDismiss}>
          {dismissLabel}
        </button>
        <button type="button" className="danger-solid" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
