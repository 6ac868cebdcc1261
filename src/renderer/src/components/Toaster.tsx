// The stack of toasts: each one says a finished action, goes after a few seconds (not while the
// pointer or focus is on the stack), and closes with its button or Escape.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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

export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const stack = useRef<HTMLDivElement>(null);
  // With the stack empty nothing holds the pointer or focus any more.
  useEffect(() => {
    if (toasts.length === 0) {
      setHovered(false);
      setFocused(false);
    }
  }, [toasts.length]);
  return (
    // The stack is always there and polite, so each toast added to it is announced once.
    <div
      ref={stack}
      className="toaster"
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
}
