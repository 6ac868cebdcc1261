// Where a batch's items went, as `status` and `run` say it: e-invoices are read on this computer,
// never sent, so a batch of only them says so, and a mixed one names the API for the rest.
import { describe, expect, it } from 'vitest';
import { whereSentLine } from '../../../src/main/cli/format';

describe('whereSentLine', () => {
  it('names the API of a batch without e-invoices', () => {
    expect(whereSentLine({ sent_to: 'embedded sandbox', total: 4 }, null)).toBe('sent to the embedded sandbox');
    expect(whereSentLine({ sent_to: 'https://api.example.com/', total: 4 }, { einvoices: 0, read: 0 })).toBe('sent to the API at https://api.example.com/');
    expect(whereSentLine({ sent_to: null, total: 4 }, null)).toBeNull();
  });

  it('says nothing was sent for a batch of e-invoices, even one an older run recorded an API for', () => {
    expect(whereSentLine({ sent_to: null, total: 3 }, { einvoices: 3, read: 3 })).toBe('read on this computer: nothing was sent, no cost');
    expect(whereSentLine({ sent_to: 'embedded sandbox', total: 3 }, { einvoices: 3, read: 2 })).toBe('read on this computer: nothing was sent, no cost');
    // Before the run: nothing read, nothing sent, nothing to say (the e-invoice line says "not read yet").
    expect(whereSentLine({ sent_to: null, total: 3 }, { einvoices: 3, read: 0 })).toBeNull();
  });

  it('says where the rest of a mixed batch went', () => {
    expect(whereSentLine({ sent_to: 'https://api.example.com/', total: 5 }, { einvoices: 2, read: 2 })).toBe(
      'sent to the API at https://api.example.com/: the other 3 items; the 2 e-invoices are read on this computer (nothing sent for them, no cost)',
    );
    expect(whereSentLine({ sent_to: 'embedded sandbox', total: 2 }, { einvoices: 1, read: 1 })).toBe(
      'sent to the embedded sandbox: the one other item; the 1 e-invoice is read on this computer (nothing sent for it, no cost)',
    );
  });
});
