// An export's file name from the window: at most 80 characters, the batch's name cut at a word,
// the date, the batch id and the ending always whole.
import { describe, expect, it } from 'vitest';
import { EXPORT_NAME_MAX, exportFileName, localDay } from '../../../src/main/service/export-file-name';

const ID = 'bmx2d6etf49bfa8';
const DAY = '2026-11-29';

describe('exportFileName', () => {
  it('keeps a short name whole, as ASCII words', () => {
    expect(exportFileName('October notice', ID, '.csv', DAY)).toBe(`October-notice-${DAY}-${ID}.csv`);
    expect(exportFileName('Mahnungen für Müller & Söhne', ID, '-invoices.csv', DAY)).toBe(`Mahnungen-fur-Muller-Sohne-${DAY}-${ID}-invoices.csv`);
    expect(exportFileName('channel/whatsapp messages.csv', ID, '.json', DAY)).toBe(`channel-whatsapp-messages.csv-${DAY}-${ID}.json`);
  });

  it('cuts a long name at a word so the whole stays within 80 characters, keeping date, id and ending', () => {
    const long = 'Customer support calls from the Hamburg and Munich offices, second half of October, after the outage';
    for (const ending of ['.csv', '.json', '-invoices.csv', '-line-items.csv', '-files.zip']) {
      const name = exportFileName(long, ID, ending, DAY);
      expect(name.length, name).toBeLessThanOrEqual(EXPORT_NAME_MAX);
      expect(name.endsWith(`-${DAY}-${ID}${ending}`), name).toBe(true);
      const kept = name.slice(0, name.length - `-${DAY}-${ID}${ending}`.length);
      // Whole words of the name, from its start, and as many as fit.
      expect(`${long.replace(/[^\w.-]+/g, '-')}-`.startsWith(`${kept}-`), kept).toBe(true);
      const next =
        long
          .replace(/[^\w.-]+/g, '-')
          .slice(kept.length + 1)
          .split('-')[0] ?? '';
      expect(name.length + next.length + 1, `${name} could hold "${next}"`).toBeGreaterThan(EXPORT_NAME_MAX);
    }
    expect(exportFileName(long, ID, '.csv', DAY)).toBe(`Customer-support-calls-from-the-Hamburg-and-${DAY}-${ID}.csv`);
  });

  it('cuts inside a word only when one word is longer than the room', () => {
    const name = exportFileName('x'.repeat(200), ID, '.csv', DAY);
    expect(name).toBe(`${'x'.repeat(EXPORT_NAME_MAX - `-${DAY}-${ID}.csv`.length)}-${DAY}-${ID}.csv`);
    expect(name).toHaveLength(EXPORT_NAME_MAX);
  });

  it('names a batch whose name has no letters or digits "batch"', () => {
    expect(exportFileName('—/ ✓ /—', ID, '.txt', DAY)).toBe(`batch-${DAY}-${ID}.txt`);
  });

  it("dates the export on this computer's calendar", () => {
    const noonLocal = new Date(2026, 0, 5, 12, 0, 0).getTime();
    expect(localDay(noonLocal)).toBe('2026-01-05');
  });
});
