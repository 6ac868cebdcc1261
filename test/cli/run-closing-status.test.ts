// `batchdesk run` ends with the batches as `batchdesk status` words them, made by the same code:
// the invoices by outcome after review, the e-invoices read on this computer, a pipeline's line
// and what redaction took out are there, and the two outputs are the same, line for line.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const SAMPLES = join(process.cwd(), 'resources', 'samples');

describe("run's closing status", () => {
  const dir = tempDir('batchdesk-run-closing-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('has every line status has for an invoice batch, before and after a review', async () => {
    const d = ['--data-dir', join(dir.path, 'invoices')];
    const created = await runCli(['batch', 'create', 'ocr', join(SAMPLES, 'invoices'), join(SAMPLES, 'e-invoices'), ...d]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';

    const run = await runCli(['run', id, ...d]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  7 invoices: 6 passed, 1 needs review\n');
    expect(run.stdout).toContain('  3 read from the e-invoice (no OCR, no cost)\n');
    expect(run.stdout).toBe((await runCli(['status', id, ...d])).stdout);

    const listed = await runCli(['review', '--list', id, ...d]);
    const job = /job (\d+)\s+item \d+\s+\S*invoice-marlowe/.exec(listed.stdout)?.[1] ?? '';
    expect(job, listed.stdout).not.toBe('');
    const accepted = await runCli(['review', job, '--set', 'gross=769.20', '--accept', ...d]);
    expect(accepted.code, accepted.stderr).toBe(0);

    // Run again (nothing left to send): its closing status counts the decision as status does.
    const again = await runCli(['run', id, ...d]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('  7 invoices: 6 passed, 1 accepted after review\n');
    expect(again.stdout).not.toContain('need review');
    expect(again.stdout).toBe((await runCli(['status', id, ...d])).stdout);
  });

  it("has a pipeline's line and what redaction took out, as status has them", async () => {
    const d = ['--data-dir', join(dir.path, 'calls')];
    const created = await runCli([
      'batch',
      'create',
      'transcribe',
      join(SAMPLES, 'recordings'),
      '--then',
      'text:summary',
      '--redact',
      'all',
      '--redact-stored',
      ...d,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^Created a pipeline of 2 steps: (\S+)/.exec(created.stdout)?.[1] ?? '';

    const run = await runCli(['run', id, ...d]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Pipeline \S+: transcribe \d+\/\d+ → text \(summary\) \d+\/\d+; /);
    expect(run.stdout).toMatch(/\n {2}redacted: /);
    expect(run.stdout).toBe((await runCli(['status', id, ...d])).stdout);
  });
});
