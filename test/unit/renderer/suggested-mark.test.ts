// The invoice list's mark for a value the supplier memory suggests: an icon with an accessible
// name (and the same words as its title) that names the fields and the job whose review taught
// them, in English and German.
import { beforeAll, describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import type { SuggestedInList } from '../../../src/shared/invoices/review-decision';
import { suggestedLine } from '../../../src/renderer/src/jobs/job-row-words';

// The component and React are loaded at run time: the Node-side type check (tsconfig.node.json)
// has no JSX, so the test sees them through the small shapes below (as icons.test.ts does).
const MARK_MODULE = '../../../src/renderer/src/jobs/SuggestedMark';
const REACT = 'react';
const REACT_SERVER = 'react-dom/server';
let render: (s: SuggestedInList) => string;

beforeAll(async () => {
  const mark = (await import(MARK_MODULE)) as { SuggestedMark: unknown };
  const react = (await import(REACT)) as { createElement: (type: unknown, props: object) => unknown };
  const server = (await import(REACT_SERVER)) as { renderToStaticMarkup: (el: unknown) => string };
  render = (suggested) => server.renderToStaticMarkup(react.createElement(mark.SuggestedMark, { suggested }));
});

const unescape = (html: string): string => html.replace(/&amp;/g, '&').replace(/&quot;/g, '"');

describe('the supplier-memory mark in the invoice list', () => {
  it('is an image named by the fields and the job, in English and German', () => {
    const one: SuggestedInList = { fromJob: 200, fromSeq: 4, fromBatchName: 'Marlowe October', fields: ['vendorVatId'] };
    const en = inLanguage('en', 'en-GB', () => render(one));
    expect(en).toMatch(/^<span class="suggested-mark" role="img" aria-label="[^"]+" title="[^"]+"><svg [^>]*aria-hidden="true"/);
    const label = /aria-label="([^"]+)"/.exec(en)?.[1] ?? '';
    expect(unescape(label)).toBe('Suggested VAT id from your review of job 4 in “Marlowe October”: open the job to see it and apply it');
    expect(/title="([^"]+)"/.exec(en)?.[1]).toBe(label);
    const de = unescape(/aria-label="([^"]+)"/.exec(inLanguage('de', 'de-DE', () => render(one)))?.[1] ?? '');
    expect(de).toBe('Vorschlag für USt-IdNr. aus Ihrer Prüfung von Auftrag 4 in „Marlowe October“: Auftrag öffnen, um ihn zu sehen und zu übernehmen');
  });

  it('lists several fields the language’s way', () => {
    const two: SuggestedInList = { fromJob: 170, fromSeq: 17, fromBatchName: 'Q3', fields: ['vendorVatId', 'iban'] };
    expect(inLanguage('en', 'en-GB', () => suggestedLine(two))).toMatch(/^Suggested VAT id and IBAN from your review of job 17 in “Q3”:/);
    expect(inLanguage('de', 'de-DE', () => suggestedLine(two))).toMatch(/^Vorschlag für USt-IdNr\. und IBAN aus Ihrer Prüfung von Auftrag 17 in „Q3“:/);
  });

  it('names the job by its item number and batch, not the store id; an earlier job once they are gone', () => {
    const gone: SuggestedInList = { fromJob: 200, fromSeq: null, fromBatchName: null, fields: ['iban'] };
    expect(inLanguage('en', 'en-GB', () => suggestedLine(gone))).toMatch(/^Suggested IBAN from your review of an earlier job:/);
    expect(inLanguage('de', 'de-DE', () => suggestedLine(gone))).toMatch(/^Vorschlag für IBAN aus Ihrer Prüfung eines früheren Auftrags:/);
  });
});
