// `batchdesk export <id> --format srt|vtt --out DIR` as a user meets it: the built CLI transcribes
// the sample recordings against the sandbox, then writes one subtitle file per recording into DIR
// (created when missing), named after the recording, with the speakers; a batch whose results are
// not timed is refused with exit 2, naming what to use instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const RECORDINGS = join(process.cwd(), 'resources', 'samples', 'recordings');
const NAMES = ['call-001-double-charge', 'call-002-late-parcel', 'call-003-cancel-plan'];

describe('batchdesk export --format srt / vtt', () => {
  let sb: SandboxHandle;
  const dir = tempDir('batchdesk-cli-subtitles-');
  const dataDir = (): string => join(dir.path, 'data');
  const args = (): string[] => ['--data-dir', dataDir()];
  let id = '';

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
    const created = await runCli(['batch', 'create', 'transcribe', RECORDINGS, ...args()]);
    expect(created.code, created.stderr).toBe(0);
    id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id, '--api-url', sb.url, ...args()], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it('writes one .srt per recording into a new folder: numbered cues, comma times, the speaker first', async () => {
    const out = join(dir.path, 'subtitles', 'october'); // neither exists yet
    const r = await runCli(['export', id, '--format', 'srt', '--out', out, ...args()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote 3 SubRip subtitle file(s) (.srt) of ${id} to ${out} (0 item(s) had no file: failed or not done)`);
    expect(readdirSync(out).sort()).toEqual(NAMES.map((n) => `${n}.srt`));
    const first = readFileSync(join(out, 'call-001-double-charge.srt'), 'utf8');
    expect(first).toMatch(
      /^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nAgent: Good morning, Harbourline Energy, this is Maya\. How can I help\?\n\n2\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\nCustomer: Hi, I think I was charged twice for October\.\n\n3\n/,
    );
    // Every block: a number, a timing line, text; the last cue ends at the recording's end.
    for (const name of NAMES) {
      const blocks = readFileSync(join(out, `${name}.srt`), 'utf8')
        .trimEnd()
        .split('\n\n');
      blocks.forEach((b, i) =>
        expect(b, `${name} cue ${i + 1}`).toMatch(
          new RegExp(`^${i + 1}\\n\\d{2}:\\d{2}:\\d{2},\\d{3} --> \\d{2}:\\d{2}:\\d{2},\\d{3}\\n(Agent|Customer): \\S.*$`),
        ),
      );
    }

    // Again into the same folder: numbered copies, nothing overwritten.
    const again = await runCli(['export', id, '--format', 'srt', '--out', out, ...args()]);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out)).toHaveLength(6);
    expect(readFileSync(join(out, 'call-001-double-charge (2).srt'), 'utf8')).toBe(first);
  });

  it('writes one .vtt per recording: the WEBVTT header, dot times, voice spans', async () => {
    const out = join(dir.path, 'vtt');
    const r = await runCli(['export', id, '--format', 'vtt', '--out', out, ...args()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote 3 WebVTT subtitle file(s) (.vtt) of ${id}`);
    expect(readdirSync(out).sort()).toEqual(NAMES.map((n) => `${n}.vtt`));
    expect(readFileSync(join(out, 'call-003-cancel-plan.vtt'), 'utf8')).toMatch(
      /^WEBVTT\n\n00:00:00\.000 --> 00:00:0\d\.\d{3}\n<v Customer>Hello, I'd like to cancel my mobile plan\.<\/v>\n\n00:00:0\d\.\d{3} --> 00:00:0\d\.\d{3}\n<v Agent>Of course\. Can I have your account number\?<\/v>\n$/,
    );
  });

  it('refuses batches whose results are not timed, and usage mistakes, with exit 2', async () => {
    const csv = join(dir.path, 'lines.csv');
    writeFileSync(csv, 'text\nHello.\n');
    const tts = /Created batch (\S+)/.exec((await runCli(['batch', 'create', 'tts', csv, ...args()])).stdout)?.[1] ?? '';
    const out = join(dir.path, 'speech-subtitles');
    const refused = await runCli(['export', tts, '--format', 'srt', '--out', out, ...args()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--format srt writes subtitles of timed transcripts, which only transcribe batches have; this is a tts batch (speech)');
    expect(refused.stderr).toContain('--format files');
    expect(() => readdirSync(out)).toThrow();

    const noOut = await runCli(['export', id, '--format', 'vtt', ...args()]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('export --format vtt needs --out DIR');

    const help = await runCli(['export', '--help']);
    expect(help.stdout).toContain('--format files|srt|vtt|ubl --out DIR');
  });
});
