// The samples a new user tries after the first batch, run as they would run them on the embedded
// sandbox: November's post (a credit note exported as a UBL CreditNote 381 that passes the CEN
// EN 16931 rules; Marlowe's next invoice, whose missing VAT number the supplier memory offers after
// October's Marlowe invoice is accepted), and a call with personal data whose transcript, the
// recording's own script, reaches the next step of a pipeline with its phone number and IBAN redacted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { compiledCenRules, fatalRules } from '../helpers/en16931-rules';
import { tempDir } from '../helpers/temp-dir';
import { validateUbl } from '../../scripts/validate-ubl';
import { PERSONAL_DATA, PERSONAL_RECORDING, transcriptOf } from '../../scripts/make-samples';

const SAMPLES = join(process.cwd(), 'resources', 'samples');

/** The job id of each of the batch's `items`, by its file's name: `review JOB --json` tried from `from` up. */
async function jobsByFile(d: string[], batchId: string, from: number, items: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let job = from; job < from + 20 && out.size < items; job++) {
    const r = await runCli(['review', String(job), '--json', ...d]);
    if (r.code !== 0) continue;
    const v = JSON.parse(r.stdout) as { batchId: string; source: string };
    if (v.batchId === batchId) out.set(v.source.split('/').pop() ?? '', job);
  }
  return out;
}

describe('the samples beyond the first batch', () => {
  const dir = tempDir('batchdesk-samples-trial-');
  let rules: unknown;
  beforeAll(() => {
    assertBuilt();
    rules = compiledCenRules();
  }, 900_000);
  afterAll(() => dir.cleanup());

  it("invoices-november: the credit note is a CreditNote 381 passing EN 16931; Marlowe's VAT number is offered from October's review", async () => {
    const d = ['--data-dir', join(dir.path, 'invoices')];
    const october = await runCli(['batch', 'create', 'ocr', join(SAMPLES, 'invoices'), '--json', ...d]);
    expect(october.code, october.stderr).toBe(0);
    const oct = (JSON.parse(october.stdout) as { batch: { id: string } }).batch.id;
    expect((await runCli(['run', oct, ...d])).code).toBe(0);
    const listed = await runCli(['review', '--list', oct, ...d]);
    const marloweOct = /job (\d+)\s+item \d+\s+\S*invoice-marlowe-INV-2026-0088/.exec(listed.stdout)?.[1] ?? '';
    expect(marloweOct, listed.stdout).not.toBe('');
    expect((await runCli(['review', marloweOct, '--set', 'gross=769.20', '--accept', ...d])).code).toBe(0);

    const november = await runCli(['batch', 'create', 'ocr', join(SAMPLES, 'invoices-november'), '--json', ...d]);
    expect(november.code, november.stderr).toBe(0);
    const nov = (JSON.parse(november.stdout) as { batch: { id: string } }).batch.id;
    const run = await runCli(['run', nov, ...d]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  2 invoices: 2 passed\n');

    const ubl = join(dir.path, 'ubl');
    expect((await runCli(['export', nov, '--format', 'ubl', '--out', ubl, ...d])).code).toBe(0);
    const credit = readFileSync(join(ubl, 'credit-note-copperfinch-CN-2026-0009.xml'), 'utf8');
    expect(credit).toMatch(/^<\?xml[^>]*>\s*<CreditNote\b/);
    expect(credit).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(credit).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>');
    expect(credit).toContain('<cbc:PayableAmount currencyID="GBP">88.80</cbc:PayableAmount>');
    expect(await fatalRules(rules, credit)).toEqual([]);
    expect((await validateUbl(credit)).errors).toEqual([]);
    // Marlowe's November invoice prints no VAT number: not declared EN 16931, the term named.
    const report = readFileSync(join(ubl, 'en16931-report.csv'), 'utf8');
    expect(report).toMatch(/invoice-marlowe-INV-2026-0131\.xml,no,BT-31 Seller VAT identifier/);

    const jobs = await jobsByFile(d, nov, Number(marloweOct) + 1, 2);
    const marloweNov = String(jobs.get('invoice-marlowe-INV-2026-0131.pdf') ?? '');
    const review = await runCli(['review', marloweNov, ...d]);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toContain('✓ Not seen before (vendor + number): INV-2026-0131 from Marlowe Print & Sign Ltd not seen before');
    expect(review.stdout).toContain(`VAT id: GB562884130 (from your review of job ${marloweOct})   --set vendorVatId=GB562884130`);

    // Applied, the invoice names its seller's VAT id and passes the CEN rules.
    expect((await runCli(['review', marloweNov, '--set', 'vendorVatId=GB562884130', '--accept', ...d])).code).toBe(0);
    const again = join(dir.path, 'ubl-reviewed');
    expect((await runCli(['export', nov, '--format', 'ubl', '--out', again, ...d])).code).toBe(0);
    const marlowe = readFileSync(join(again, 'invoice-marlowe-INV-2026-0131.xml'), 'utf8');
    expect(marlowe).toContain('<cbc:CompanyID>GB562884130</cbc:CompanyID>');
    expect(await fatalRules(rules, marlowe)).toEqual([]);
  }, 300_000);

  it("recordings-personal-data: the transcript is the recording's script, and the next step gets it redacted", async () => {
    const d = ['--data-dir', join(dir.path, 'calls')];
    const created = await runCli([
      'batch',
      'create',
      'transcribe',
      join(SAMPLES, 'recordings-personal-data'),
      '--then',
      'text:summary',
      '--redact',
      'all',
      ...d,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const [first, second] = /^Created a pipeline of 2 steps: (\S+) → (\S+)/.exec(created.stdout)?.slice(1) ?? [];
    const run = await runCli(['run', first ?? '', ...d]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  redacted: 1 IBAN, 1 phone number in what items sent on (1 item)\n');

    const read = (id: string): Array<{ text: string; input?: string; sandbox: boolean }> => {
      const out = join(dir.path, `${id}.json`);
      return JSON.parse(readFileSync(out, 'utf8')) as Array<{ text: string; input?: string; sandbox: boolean }>;
    };
    for (const id of [first, second])
      expect((await runCli(['export', id ?? '', '--format', 'json', '--out', join(dir.path, `${id}.json`), ...d])).code).toBe(0);
    // The sandbox read the recording's own words (not made up, A21): the transcript is its script.
    const [transcript] = read(first ?? '');
    expect(transcript).toMatchObject({ text: transcriptOf(PERSONAL_RECORDING), sandbox: false });
    const [summary] = read(second ?? '');
    expect(summary?.input).toContain('Customer: [PHONE]. The IBAN is [IBAN].');
    expect(summary?.input).not.toContain(PERSONAL_DATA.iban);
    expect(summary?.input).toContain(PERSONAL_DATA.name);
  }, 120_000);
});
