// What `pause` says of a batch it could not pause, on one computer and for a team: why, and the
// command that does what the user may have wanted instead.
import { describe, expect, it } from 'vitest';
import { notRunning, nothingToSwitch } from '../../../src/main/cli/format';
import { batchSummary } from '../../helpers/batch-summary';

describe('pause of a batch that was not running', () => {
  it('says why for every status, and what to run next', () => {
    const sampled = batchSummary({ id: 'b1', status: 'paused', pause: { kind: 'sample', reason: 'Sample done', until: null, code: null } });
    expect(notRunning(sampled, '')).toBe('b1 was not running: it is already paused (sample); `batchdesk resume b1` continues it.');
    expect(notRunning(sampled, ' --store URL')).toBe('b1 was not running: it is already paused (sample); `batchdesk resume b1 --store URL` continues it.');
    expect(notRunning(batchSummary({ id: 'b1', status: 'done_with_failures' }), '')).toBe(
      'b1 was not running: it is done (`batchdesk retry b1` queues its failed items again).',
    );
    expect(notRunning(batchSummary({ id: 'b1', status: 'cancelled' }), ' --store URL')).toBe('b1 was not running: it was cancelled.');
    expect(notRunning(batchSummary({ id: 'b1', status: 'done' }), '')).toBe('b1 was not running: it is done.');
  });
});

describe('resume --switch-api of a batch with nothing left to send', () => {
  it('is refused, so the batch keeps the record of where its items went', () => {
    expect(nothingToSwitch(batchSummary({ id: 'b1', status: 'done', sent_to: 'http://a.test/' }), '')).toBe(
      'Batch b1 has nothing left to send (it is done): it stays recorded as sent to the API at http://a.test/; --switch-api changed nothing.',
    );
    expect(nothingToSwitch(batchSummary({ id: 'b1', status: 'done_with_failures', sent_to: 'embedded sandbox' }), ' --store URL')).toContain(
      'To send its failed items elsewhere, queue them again first (`batchdesk retry b1 --store URL`), then switch.',
    );
    for (const status of ['running', 'paused', 'pending'] as const) expect(nothingToSwitch(batchSummary({ id: 'b1', status }), '')).toBeNull();
  });
});
