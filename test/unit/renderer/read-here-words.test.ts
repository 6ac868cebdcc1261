// The New batch estimate of an OCR batch says why e-invoices cost nothing: they are read on this
// computer; with scans beside them, it names both parts of the figures.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readHereLines } from '../../../src/renderer/src/new-batch/read-here-words';

const units = { name: 'pages', estimated: 0 };

describe('the estimate of e-invoices read here', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says a folder of e-invoices is read on this computer, in English and German', () => {
    vi.stubGlobal('navigator', { languages: ['en-GB'] });
    const all = { items: 4, einvoices: 4, units, estimatedCost: 0 };
    expect(readHereLines(all, 'en')).toEqual(['4 e-invoices read on this computer (no OCR, no cost)']);
    expect(readHereLines({ ...all, items: 1, einvoices: 1 }, 'en')).toEqual(['1 e-invoice read on this computer (no OCR, no cost)']);
    expect(readHereLines(all, 'de')).toEqual(['4 E-Rechnungen werden auf diesem Computer gelesen (keine OCR, keine Kosten)']);
  });

  it('names the scans and the e-invoices of a mixed folder', () => {
    vi.stubGlobal('navigator', { languages: ['en-GB'] });
    expect(readHereLines({ items: 5, einvoices: 3, units: { name: 'pages', estimated: 7 }, estimatedCost: 700 }, 'en')).toEqual([
      '2 scans for OCR: 7 pages, €0.07',
      '3 e-invoices read on this computer (no OCR, no cost)',
    ]);
  });

  it('says nothing when nothing is read here', () => {
    expect(readHereLines({ items: 5, einvoices: 0, units, estimatedCost: 500 })).toEqual([]);
  });
});
