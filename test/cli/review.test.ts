// batchdesk review: the Needs review queue, a correction re-checked and printed, a refused value,
// Accept recorded with the OS user, and status counting the invoices by outcome.
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const INVOICES = join(process.cwd(), 'resources', 'samples', 'invoices');

describe('batchdesk review', () => {
  let sb: SandboxHandle;
  const dir = tempDir('batchdesk-cli-review-');
  const d = ['--data-dir', join(dir.path, 'data')];

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it('lists, corrects, refuses a bad value, accepts, and status counts the outcome', async () => {
    const created = await runCli(['batch', 'create', 'ocr', INVOICES, ...d]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id, '--api-url', sb.url, ...d], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code, run.stderr).toBe(0);

    const listed = await runCli(['review', '--list', id, ...d]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`1 invoice(s) of batch ${id} need review:`);
    expect(listed.stdout).toMatch(/✗ Net \+ VAT = gross: .*10\.00 more/);
    const job = /job (\d+)\s+item \d+\s+\S*invoice-marlowe/.exec(listed.stdout)?.[1] ?? '';
    expect(job).not.toBe('');

    const bad = await runCli(['review', job, '--set', 'dueDate=2026-13-01', '--set', 'vendorVatId=12', '--set', 'buyerCountry=XX', ...d]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nothing was saved');
    expect(bad.stderr).toContain('dueDate: "2026-13-01" is not a date');
    expect(bad.stderr).toContain('vendorVatId: not a VAT id');
    expect(bad.stderr).toContain('buyerCountry: not a country code');

    const fixed = await runCli(['review', job, '--set', 'gross=769,20', '--set', 'buyerCountry=gb', ...d]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('Needs review: not decided yet');
    expect(fixed.stdout).toMatch(/ gross\s+769\.20\s+\(read: 779\.20\)/);
    // The buyer's country (BT-55), which EN 16931 needs, can be given in review.
    expect(fixed.stdout).toMatch(/ buyerCountry\s+GB\s+\(read: /);
    expect(fixed.stdout).toMatch(/✓ Net \+ VAT = gross: 641\.00 \+ 128\.20 VAT = 769\.20/);

    const accepted = await runCli(['review', job, '--accept', '--note', 'total misprinted', '--json', ...d]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ decision: 'accepted', decidedBy: userInfo().username, note: 'total misprinted', needsReview: false });

    expect((await runCli(['review', '--list', id, ...d])).stdout).toContain(`No invoice of batch ${id} needs review`);
    const status = await runCli(['status', id, ...d]);
    expect(status.stdout).toContain('4 invoices: 3 passed, 1 accepted after review');
    expect(status.stdout).not.toContain('need review');

    expect((await runCli(['review', '999999', ...d])).stderr).toContain('Job 999999 has no invoice to review');
    expect((await runCli(['review', job, '--accept', '--reject', ...d])).code).toBe(2);
  });
});
