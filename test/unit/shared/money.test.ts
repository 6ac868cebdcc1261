import { describe, expect, it } from 'vitest';
import { formatEur, moneyToDecimal, parseEur } from '../../../src/shared/money';
import { actionFor, ERROR_KINDS } from '../../../src/shared/errors';
import { displayStatus, emptyCounts } from '../../../src/shared/domain';

describe('money', () => {
  it('parses euro amounts with up to four decimals into 1/10,000 EUR', () => {
    expect(parseEur('0.0040')).toBe(40);
    expect(parseEur('12')).toBe(120_000);
    expect(parseEur('3,5')).toBe(35_000);
    expect(parseEur('€1.2345')).toBe(12_345);
    expect(parseEur('1.23456')).toBeNull();
    expect(parseEur('-1')).toBeNull();
    expect(parseEur('abc')).toBeNull();
  });
  it('formats totals to cents (half up) and rates to four decimals', () => {
    expect(formatEur(12_345)).toBe('€1.23');
    expect(formatEur(12_350)).toBe('€1.24');
    expect(formatEur(40, 4)).toBe('€0.0040');
    expect(moneyToDecimal(1_234_500)).toBe('123.4500');
  });
});

describe('error taxonomy', () => {
  it('gives every kind exactly one action', () => {
    const actions = Object.fromEntries(ERROR_KINDS.map((k) => [k, actionFor(k)]));
    expect(actions).toEqual({
      auth: 'pause_batch',
      quota: 'pause_batch',
      rate_limited: 'retry_later',
      transient: 'retry_later',
      invalid_request: 'fail_job',
      invalid_input: 'fail_job',
      bad_response: 'retry_later',
      local_io: 'fail_job',
      internal: 'fail_job',
    });
  });
});

describe('displayStatus', () => {
  it('derives done, failures and progress from counts; pending until started', () => {
    expect(displayStatus('active', false, { ...emptyCounts(), queued: 3 })).toBe('pending');
    expect(displayStatus('active', true, { ...emptyCounts(), queued: 3 })).toBe('running');
    expect(displayStatus('active', true, { ...emptyCounts(), queued: 2, succeeded: 1 })).toBe('running');
    expect(displayStatus('active', true, { ...emptyCounts(), succeeded: 3 })).toBe('done');
    expect(displayStatus('active', true, { ...emptyCounts(), succeeded: 2, failed: 1 })).toBe('done_with_failures');
    expect(displayStatus('paused', true, { ...emptyCounts(), queued: 2 })).toBe('paused');
  });

  it('a finished batch stays finished even if its stored status says paused', () => {
    expect(displayStatus('paused', true, { ...emptyCounts(), succeeded: 3 })).toBe('done');
  });
});
