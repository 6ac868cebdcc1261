// A batch's name when none is given: what was dropped, how many, of what.
import { describe, expect, it } from 'vitest';
import { batchNameParts, defaultBatchName, droppedName, englishBatchName } from '../../src/shared/capabilities/batch-name';

describe('defaultBatchName', () => {
  it('names the dropped folder or file, the count and the kind of item', () => {
    expect(defaultBatchName({ capability: 'transcribe', channel: null, paths: ['/home/ana/Calls 26 Nov'], count: 300 })).toBe('Calls 26 Nov (300 recordings)');
    expect(defaultBatchName({ capability: 'channel', channel: 'whatsapp', paths: ['/home/ana/channel/messages.csv'], count: 200 })).toBe(
      'messages.csv (200 messages)',
    );
    expect(defaultBatchName({ capability: 'ocr', channel: null, paths: ['C:\\Users\\ana\\Invoices Oct\\'], count: 213 })).toBe('Invoices Oct (213 scans)');
    expect(defaultBatchName({ capability: 'tts', channel: null, paths: ['lines.csv'], count: 1 })).toBe('lines.csv (1 text)');
    expect(defaultBatchName({ capability: 'channel', channel: 'voice', paths: ['calls.csv'], count: 20_000 })).toBe('calls.csv (20,000 calls)');
  });
  it('names several dropped files by what they are and the day, not by the first file', () => {
    const now = new Date(2026, 10, 30, 5, 45);
    expect(defaultBatchName({ capability: 'channel', channel: 'email', paths: ['a.csv', 'b.csv', 'c.csv'], count: 3, now })).toBe('E-mails 30 Nov (3 e-mails)');
    const files = Array.from({ length: 9 }, (_, i) => `/up/credit-note-${i}.pdf`);
    expect(defaultBatchName({ capability: 'ocr', channel: null, paths: files, count: 9, einvoices: 3, now })).toBe('Invoices 30 Nov (6 scans, 3 e-invoices)');
    const calls = Array.from({ length: 30 }, (_, i) => `/up/anruf-${i}.wav`);
    const parts = batchNameParts({ capability: 'transcribe', channel: null, paths: calls, count: 30, now: new Date(2026, 10, 26) });
    expect(parts).toMatchObject({ what: null, day: '2026-11-26' });
    expect(englishBatchName(parts)).toBe('Recordings 26 Nov (30 recordings)');
    // One folder or one file keeps its own name, and no day.
    expect(batchNameParts({ capability: 'transcribe', channel: null, paths: ['/x/Calls 26 Nov'], count: 300, now }).day).toBeNull();
  });
  it('counts e-invoices as e-invoices, not as scans', () => {
    const mixed = { capability: 'ocr' as const, channel: null, paths: ['/in/Invoices Oct'], count: 2, einvoices: 1 };
    expect(defaultBatchName(mixed)).toBe('Invoices Oct (1 scan, 1 e-invoice)');
    expect(batchNameParts(mixed).counts).toEqual([
      { noun: 'scan', n: 1 },
      { noun: 'einvoice', n: 1 },
    ]);
    expect(defaultBatchName({ ...mixed, count: 3, einvoices: 3 })).toBe('Invoices Oct (3 e-invoices)');
    expect(defaultBatchName({ ...mixed, count: 0, einvoices: 0 })).toBe('Invoices Oct (0 scans)');
    expect(defaultBatchName({ capability: 'image', channel: null, paths: [], count: 2 })).toBe('2 prompts');
  });
  it('keeps outside text inert and bounded', () => {
    const name = defaultBatchName({ capability: 'crm', channel: null, paths: [`/x/${'a'.repeat(300)}\u001b.csv`], count: 2 });
    expect(name).not.toContain('\u001b');
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.endsWith('… (2 records)')).toBe(true);
    expect(droppedName('/')).toBe('/');
  });
});
