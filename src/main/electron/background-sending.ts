// Closing the window while batches send: the user may keep them sending in the background (the
// window hides, a tray icon shows the progress and brings it back) or quit (they stop, and go on
// at the next start). The words and choices here; desktop-manners-binding.ts shows them.
import type { Sending } from './desktop-manners';

export type CloseChoice = 'background' | 'quit' | 'stay';

export interface ClosePrompt {
  message: string;
  detail: string;
  buttons: string[];
  /** The choice of each button, in order. */
  choices: CloseChoice[];
  defaultId: number;
  cancelId: number;
}

export function closePrompt(sending: Sending): ClosePrompt {
  return {
    message: `${sendingLine(sending)}.`,
    detail:
      'Keep sending in the background: the window closes and Batchdesk sends on, with an icon in the tray (the menu bar on macOS) that shows the progress and brings the window back. ' +
      'Quit: they stop now and continue where they stopped the next time Batchdesk starts; no item is sent twice.',
    buttons: ['Keep sending in the background', 'Quit', 'Cancel'],
    choices: ['background', 'quit', 'stay'],
    defaultId: 0,
    cancelId: 2,
  };
}

/** The choice of a message box's answer; an answer out of range (the box was dismissed) keeps the window. */
export function closeChoice(prompt: ClosePrompt, response: number): CloseChoice {
  return prompt.choices[response] ?? 'stay';
}

/** "Sending 2 batches: 45% (450 of 1,000 items)", or that nothing sends. */
export function sendingLine(sending: Sending | null): string {
  if (sending === null) return 'Nothing is sending';
  const n = sending.batches === 1 ? '1 batch' : `${sending.batches} batches`;
  return `Sending ${n}: ${Math.floor(sending.fraction * 100)}% (${sending.done.toLocaleString('en')} of ${sending.total.toLocaleString('en')} items)`;
}

export type TrayAction = 'open' | 'quit';

/** The tray icon's tooltip and menu: the progress line (not clickable), then the actions. */
export function trayView(sending: Sending | null): { tooltip: string; items: ({ label: string; action: TrayAction } | { label: string; action: null })[] } {
  const line = sendingLine(sending);
  return {
    tooltip: `Batchdesk: ${line.charAt(0).toLowerCase()}${line.slice(1)}`,
    items: [
      { label: line, action: null },
      { label: 'Open Batchdesk', action: 'open' },
      { label: sending === null ? 'Quit' : 'Quit (sending stops, and goes on at the next start)', action: 'quit' },
    ],
  };
}
