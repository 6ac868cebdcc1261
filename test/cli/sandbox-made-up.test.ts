// A new user without an API tries Batchdesk on their own files: the embedded sandbox must not pass
// off anything as real (docs/api-assumptions.md A21). A scan it cannot read fails, saying so and
// what to do, instead of becoming another invoice; what it makes up (a transcript of a recording
// it did not listen to, a summary) is marked in the stored result and in every export, and what it
// read from the file itself (a PDF's text, a sample recording's script) is not.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/sandbox/png';
import { assertBuilt, runCli } from '../helpers/cli';
import { parseCsv } from '../helpers/csv';
import { tempDir } from '../helpers/temp-dir';
import { tinyWav } from '../helpers/wav-folder';
import { INVOICES, RECORDINGS } from '../integration/harness';

interface Status {
  batches: { id: string; status: string; counts: { succeeded: number; failed: number } }[];
}

describe("the embedded sandbox on a user's own files", () => {
  const dir = tempDir('batchdesk-made-up-');
  const d = (): string[] => ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  const created = async (args: string[]): Promise<string> => {
    const r = await runCli(['batch', 'create', ...args, '--json', ...d()]);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { batch: { id: string } }).batch.id;
  };
  const exported = async (id: string, format: string, name: string): Promise<string> => {
    const out = join(dir.path, name);
    const r = await runCli(['export', id, '--format', format, '--out', out, ...d()]);
    expect(r.code, r.stderr).toBe(0);
    return out;
  };

  it('an image-only scan fails with why and what to do; an invoice with text is read, unmarked', async () => {
    const scans = join(dir.path, 'scans');
    mkdirSync(scans);
    copyFileSync(join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'), join(scans, 'aldenmoor.pdf'));
    // A photographed receipt: pixels only, as a phone or a scanner writes it.
    writeFileSync(join(scans, 'brightwater.png'), encodePng(40, 30, Buffer.alloc(40 * 30 * 3, 230)));
    const id = await created(['ocr', scans]);
    const run = await runCli(['run', id, ...d()]);
    expect(run.code, run.stderr).toBe(1);
    const status = JSON.parse((await runCli(['status', id, '--json', ...d()])).stdout) as Status;
    expect(status.batches[0]?.counts).toMatchObject({ succeeded: 1, failed: 1 });

    const rows = parseCsv(readFileSync(await exported(id, 'csv', 'scans.csv'), 'utf8'));
    const byFile = new Map(
      rows.slice(1).map((r) => [r[rows[0]?.indexOf('source') ?? 0] ?? '', Object.fromEntries((rows[0] ?? []).map((h, i) => [h, r[i] ?? '']))]),
    );
    const png = byFile.get(join(scans, 'brightwater.png'));
    expect(png?.state).toBe('failed');
    expect(png?.error).toBe(
      `${join(scans, 'brightwater.png')}: Not read: the built-in sandbox answers in place of a real API (HTTP 422 sandbox_cannot_read): The built-in sandbox cannot read images: this PNG carries no text of its own, and it does not make up an invoice instead. To read it, configure the real API (in the window: Keys & rates, the API URL under Settings and an API key; on the command line: --api-url and \`batchdesk keys add\`). Nothing was billed. Once the real API is configured, create a new batch of the items that failed (failed items are taken again).`,
    );
    expect(png?.invoice_number).toBe('');
    expect(png?.sandbox).toBe('');
    const pdf = byFile.get(join(scans, 'aldenmoor.pdf'));
    expect(pdf).toMatchObject({ state: 'succeeded', invoice_number: 'INV-2026-0012', sandbox: 'no' });

    // Only the invoice that was read goes to accounting, without a made-up note.
    const ubl = await exported(id, 'ubl', 'ubl');
    expect(readdirSync(ubl).sort()).toEqual(['aldenmoor.xml', 'en16931-report.csv']);
    expect(readFileSync(join(ubl, 'aldenmoor.xml'), 'utf8')).not.toContain('MADE UP');
  }, 60_000);

  it("a user's own recording gets a transcript marked made up in the result, CSV, JSON, TXT, SRT and VTT; a sample's script is not", async () => {
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    writeFileSync(join(calls, 'my-call.wav'), tinyWav(7));
    copyFileSync(join(RECORDINGS, 'call-001-double-charge.wav'), join(calls, 'call-001.wav'));
    const id = await created(['transcribe', calls, '--then', 'text:summary']);
    const run = await runCli(['run', id, ...d()]);
    expect(run.code, run.stderr).toBe(0);

    const csv = parseCsv(readFileSync(await exported(id, 'csv', 'calls.csv'), 'utf8'));
    const col = (csv[0] ?? []).indexOf('sandbox');
    expect(col).toBeGreaterThan(0);
    const made = new Map(csv.slice(1).map((r) => [r[1] ?? '', r[col]]));
    expect(made.get(join(calls, 'my-call.wav'))).toBe('yes');
    expect(made.get(join(calls, 'call-001.wav'))).toBe('no');

    const json = JSON.parse(readFileSync(await exported(id, 'json', 'calls.json'), 'utf8')) as { source: string; sandbox: boolean | null }[];
    expect(Object.fromEntries(json.map((j) => [j.source, j.sandbox]))).toEqual({ [join(calls, 'my-call.wav')]: true, [join(calls, 'call-001.wav')]: false });

    const txt = readFileSync(await exported(id, 'txt', 'calls.txt'), 'utf8');
    expect(txt).toContain(`=== ${join(calls, 'my-call.wav')} [succeeded, made up by the sandbox]\nMade up by the built-in sandbox, not a real result`);
    expect(txt).toContain(`=== ${join(calls, 'call-001.wav')} [succeeded]\nAgent:`);

    const files = await exported(id, 'files', 'files');
    expect(readFileSync(join(files, 'my-call.txt'), 'utf8')).toMatch(
      /^\[Made up by the built-in sandbox, not a real result: the sandbox answers in place of the real API\. .*\]\n\n\S/,
    );
    expect(readFileSync(join(files, 'call-001.txt'), 'utf8')).toMatch(/^Agent: /);
    expect(JSON.parse(readFileSync(join(files, 'my-call.json'), 'utf8'))).toMatchObject({ sandbox: true });
    expect(readFileSync(join(files, 'my-call.srt'), 'utf8')).toMatch(/^1\n00:00:00,000 --> \S+\n\[Made up by the built-in sandbox, not a real result\]\n\S/);
    expect(readFileSync(join(files, 'my-call.vtt'), 'utf8')).toMatch(
      /^WEBVTT\n\nNOTE Made up by the built-in sandbox, not a real result\n\n00:00:00\.000 --> /,
    );
    expect(readFileSync(join(files, 'call-001.srt'), 'utf8')).not.toContain('Made up');
    expect(readFileSync(join(files, 'call-001.vtt'), 'utf8')).not.toContain('NOTE');

    // The summaries are the sandbox's own writing, whatever their input.
    const steps = JSON.parse((await runCli(['status', id, '--json', ...d()])).stdout) as { batches: { id: string; capability: string }[] };
    const summaries = steps.batches.find((b) => b.capability === 'text')?.id ?? '';
    const sums = parseCsv(readFileSync(await exported(summaries, 'csv', 'summaries.csv'), 'utf8'));
    const sc = (sums[0] ?? []).indexOf('sandbox');
    expect(sums.slice(1).map((r) => r[sc])).toEqual(['yes', 'yes']);
  }, 60_000);

  it('speech and images, files the sandbox makes up, are marked by its answer header in the result and the CSV', async () => {
    const lines = join(dir.path, 'lines.txt');
    writeFileSync(lines, 'Welcome to Harbourline.\nYour parcel is on its way.\n');
    for (const capability of ['tts', 'image']) {
      const id = await created([capability, lines]);
      const run = await runCli(['run', id, ...d()]);
      expect(run.code, run.stderr).toBe(0);
      const csv = parseCsv(readFileSync(await exported(id, 'csv', `${capability}.csv`), 'utf8'));
      const col = (csv[0] ?? []).indexOf('sandbox');
      expect(
        csv.slice(1).map((r) => r[col]),
        capability,
      ).toEqual(['yes', 'yes']);
    }
  }, 60_000);
});
