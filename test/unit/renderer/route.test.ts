// Hash routes: every screen deep-linkable, the batch's "needs review" list included, and what was
// linked before still opens the same screen.
import { describe, expect, it } from 'vitest';
import { hrefFor, parseHash, type Route } from '../../../src/renderer/src/routing/route';

describe('hash routes', () => {
  it('parses the batch routes, with and without the review filter', () => {
    expect(parseHash('')).toEqual({ name: 'batches' });
    expect(parseHash('#/batches')).toEqual({ name: 'batches' });
    expect(parseHash('#/batches/b7e8f9')).toEqual({ name: 'batch', id: 'b7e8f9', jobId: null });
    expect(parseHash('#/batches/b7e8f9/')).toEqual({ name: 'batch', id: 'b7e8f9', jobId: null });
    expect(parseHash('#/batches/b7e8f9/jobs/12')).toEqual({ name: 'batch', id: 'b7e8f9', jobId: 12 });
    expect(parseHash('#/batches/b7e8f9/review')).toEqual({ name: 'batch', id: 'b7e8f9', jobId: null, review: true });
    expect(parseHash('#/batches/b7e8f9/review/jobs/12')).toEqual({ name: 'batch', id: 'b7e8f9', jobId: 12, review: true });
  });

  it('anything else under a batch is not found', () => {
    for (const hash of [
      '#/batches/b1/jobs',
      '#/batches/b1/jobs/x',
      '#/batches/b1/jobs/1/2',
      '#/batches/b1/other',
      '#/batches/b1/review/jobs',
      '#/batches/b1/review/x',
      '#/batches/b1/review/jobs/1/2',
    ]) {
      expect(parseHash(hash), hash).toEqual({ name: 'not_found', hash });
    }
  });

  it('writes hrefs that parse back to the same route', () => {
    const routes: Route[] = [
      { name: 'batches' },
      { name: 'batch', id: 'b1', jobId: null },
      { name: 'batch', id: 'b1', jobId: 3 },
      { name: 'batch', id: 'b1', jobId: null, review: true },
      { name: 'batch', id: 'b1', jobId: 3, review: true },
      { name: 'batch', id: 'a b/c', jobId: 3, review: true },
      { name: 'new', from: null },
      { name: 'new', from: 'b1' },
      { name: 'search', query: 'late parcel', semantic: false },
      { name: 'search', query: 'refund', semantic: true },
      { name: 'costs' },
      { name: 'statement', month: '2026-11', client: 'ACME GmbH' },
      { name: 'statement', month: '2026-11', client: 'A/B & Söhne' },
      { name: 'statement', month: '2026-11', client: null },
      { name: 'compare', group: 'bmw1' },
      { name: 'keys' },
      { name: 'keys', section: 'phone-country' },
    ];
    for (const r of routes) expect(parseHash(hrefFor(r))).toEqual(r);
    expect(hrefFor({ name: 'batch', id: 'b1', jobId: null, review: true })).toBe('#/batches/b1/review');
    expect(hrefFor({ name: 'batch', id: 'b1', jobId: 7, review: false })).toBe('#/batches/b1/jobs/7');
    expect(hrefFor({ name: 'statement', month: '2026-11', client: 'ACME GmbH' })).toBe('#/costs/statement/2026-11/ACME%20GmbH');
    expect(hrefFor({ name: 'keys', section: 'phone-country' })).toBe('#/keys/phone-country');
    expect(parseHash('#/keys/elsewhere')).toEqual({ name: 'not_found', hash: '#/keys/elsewhere' });
    expect(parseHash('#/costs/statement/11-2026/ACME')).toEqual({ name: 'not_found', hash: '#/costs/statement/11-2026/ACME' });
  });
});
