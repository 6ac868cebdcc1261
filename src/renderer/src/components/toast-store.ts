// Finished actions, said once in a toast (components/Toaster.tsx). Failures are not toasts: they
// stay in the alert beside the control that failed, until the user acts on them.
import { create } from 'zustand';

export interface Toast {
  id: number;
  text: string;
}

/** More than this at once is noise: the oldest make room. */
const MAX_SHOWN = 4;

interface ToastState {
  toasts: Toast[];
  show(text: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  show(text) {
    const toast = { id: nextId++, text };
    set((s) => ({ toasts: [...s.toasts, toast].slice(-MAX_SHOWN) }));
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Says that an action finished ("Batch “Calls” paused."), in a toast that goes by itself. */
export function toast(text: string): void {
  useToastStore.getState().show(text);
}
