// `rates set`: the unit a rate is per is named, and a negative rate is refused at once (not sent
// after `--` first, to be refused there).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('rates set', () => {
  const dir = tempDir('batchdesk-rates-set-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('names the unit, lists the rate, and refuses a negative one with what to give', async () => {
    const d = ['--data-dir', join(dir.path, 'data')];
    for (const value of ['-1', '-.5']) {
      const negative = await runCli(['rates', 'set', 'transcribe', 'standard', value, ...d]);
      expect(negative.code, value).toBe(2);
      expect(negative.stderr).toContain(`A rate cannot be negative (got ${value}): give an amount in EUR of 0 or more with up to four decimals, e.g. 0.0040.`);
      expect(negative.stderr).not.toContain(`-- ${value}`);
    }
    // Above the largest rate: said in EUR as typed, not in the 1/10,000 units it is kept in.
    const high = await runCli(['rates', 'set', 'transcribe', 'standard', '1000.0001', ...d]);
    expect(high.code).toBe(2);
    expect(high.stderr).toContain('(got €1000.0001)');
    const set = await runCli(['rates', 'set', 'transcribe', 'standard', '0.005', ...d]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(
      'transcribe standard: €0.0050 per audio second. Estimates, and the cost of every item sent from now on (a batch sending now too), use it.\n',
    );
    expect((await runCli(['rates', 'list', ...d])).stdout).toMatch(/^transcribe\s+standard\s+€0\.0050 per audio second$/m);
  });
});
