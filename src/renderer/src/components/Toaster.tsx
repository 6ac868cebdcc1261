// The stack of toasts: each one says a finished action, goes after a few seconds (not while the
// pointer or focus is on the stack), and closes with its button or Escape.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { useToastStore, type Toast } from './toast-store';
import { Icon } from './icons';
import { shortenLongWords } from '../format/middle-ellipsis';
import './Toaster.css';

/** Long enough to read two lines twice. */
const SHOWN_MS = 6000;

/** The longest word shown whole; a longer one (a file name) is cut in the middle, whole in the tooltip and for screen readers. */
const LONGEST_WORD = 40;

function ToastText({ text }: { text: string }) {
  const short = shortenLongWords(text, LONGEST_WORD);
  if (short === text) return <span className="toast__text">{text}</span>;
  return (
    <span className="toast__text" title={text}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}

function ToastItem({ toast, paused }: { toast: Toast; paused: boolean }) {
  const { t } = useTranslation('common');
  const dismiss = useToastStore((s) => s.dismiss);
  const onDismiss = () => dismiss(toast.id);
  // What is left of the toast's time: a pause keeps it, and a second is always left to see it go.
  const left = useRef(SHOWN_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismiss(toast.id), left.current);
    return () => {
      window.clearTimeout(timer);
      left.current = Math.max(1000, left.current - (Date.now() - started));
    };
  }, [paused, dismiss, toast.id]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onDismiss();
    }
  };
  return (
    <div role="status" aria-atomic="true" className="toast" data-testid="toast" onKeyDown={onKeyDown}>
      <ToastText text={toast.text} />
      <button type="button" className="toast__close" aria-label={t('toast.dismiss')} title={t('toast.dismiss')} onClick={onDismiss}>
        <Icon icon={X} size={16} className="toast__close-icon" />
      </button>
    </div>
  );
}

/** The modal dialog on top, if one is open: everything outside it is inert and under its backdrop. */
function topModal(): HTMLDialogElement | null {
  const open = document.querySelectorAll<HTMLDialogElement>('dialog[open]');
  for (let i = open.length - 1; i >= 0; i--) {
    const d = open[i];
    if (d && d.matches(':modal')) return d;
  }
  return null;
}

/** Follows dialogs opening and closing (showModal and close set and remove `open`). */
function useTopModal(): HTMLDialogElement | null {
  const [top, setTop] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    const update = (): void => setTop(topModal());
    update();
    const seen = new MutationObserver(update);
    seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    return () => seen.disconnect();
  }, []);
  return top;
}

export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const stack = useRef<HTMLDivElement>(null);
  // Over a modal dialog (the job dialog's "Corrections saved"), the stack goes into it: a modal
  // dialog sits in the top layer above any z-index, and what is outside it cannot be clicked.
  const dialog = useTopModal();
  // With the stack empty nothing holds the pointer or focus any more.
  useEffect(() => {
    if (toasts.length === 0) {
      setHovered(false);
      setFocused(false);
    }
  }, [toasts.length]);
  const toaster = (
    // The stack is always there and polite, so each toast added to it is announced once.
    <div
      ref={stack}
      className={`toaster${dialog ? ' toaster--in-dialog' : ''}`}
      aria-live="polite"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!stack.current?.contains(e.relatedTarget)) setFocused(false);
      }}
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} paused={hovered || focused} />
      ))}
    </div>
  );
  return dialog ? createPortal(toaster, dialog) : toaster;
}
