// The close-while-sending question and the tray's words.
import { describe, expect, it } from 'vitest';
import { closeChoice, closePrompt, sendingLine, trayView } from '../../../src/main/electron/background-sending';

const sending = { batches: 2, done: 1234, total: 5000, fraction: 0.2468 };

describe('closePrompt', () => {
  it('asks with the progress and maps each button to its choice; a dismissed box keeps the window', () => {
    const p = closePrompt(sending);
    expect(p.message).toBe('Sending 2 batches: 24% (1,234 of 5,000 items).');
    expect(p.detail).toContain('no item is sent twice');
    expect(p.buttons.map((_, i) => closeChoice(p, i))).toEqual(['background', 'quit', 'stay']);
    expect(closeChoice(p, p.cancelId)).toBe('stay');
    expect(closeChoice(p, 7)).toBe('stay');
    expect(closeChoice(p, p.defaultId)).toBe('background');
  });
});

describe('trayView', () => {
  it('shows the progress, Open Batchdesk and Quit (saying that sending stops)', () => {
    const v = trayView(sending);
    expect(v.tooltip).toBe('Batchdesk: sending 2 batches: 24% (1,234 of 5,000 items)');
    expect(v.items).toEqual([
      { label: 'Sending 2 batches: 24% (1,234 of 5,000 items)', action: null },
      { label: 'Open Batchdesk', action: 'open' },
      { label: 'Quit (sending stops, and goes on at the next start)', action: 'quit' },
    ]);
    expect(trayView(null).items.map((i) => i.label)).toEqual(['Nothing is sending', 'Open Batchdesk', 'Quit']);
    expect(sendingLine({ batches: 1, done: 0, total: 3, fraction: 0 })).toBe('Sending 1 batch: 0% (0 of 3 items)');
  });
});
