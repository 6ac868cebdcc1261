// "Files out" end to end: real batches run against the sandbox, then every succeeded item written
// as its own file (engine.exportFiles) and as one zip (engine.exportFilesZip, read back with
// yauzl): speech byte for byte as saved, transcripts and text results as .txt equal to the result
// text, names after the source file or row, clashes numbered and nothing in the folder overwritten.
import { copyFileSync, createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { readZip } from '../helpers/zip';
import { createAndRun, jobsOf, RECORDINGS, startHarness, writeText as file, type Harness } from './harness';
import { describe as describeCapability } from '../../src/shared/capabilities/catalog';
import { UserError } from '../../src/main/engine/failures';
import { MADE_UP_WORDS } from '../../src/shared/made-up';

const sorted = (dir: string): string[] => readdirSync(dir).sort();

async function zipOf(h: Harness, id: string): Promise<{ entries: Map<string, Buffer>; result: Awaited<ReturnType<Harness['engine']['exportFilesZip']>> }> {
  const path = join(h.dir, `${id}.zip`);
  const out = createWriteStream(path);
  const result = await h.engine.exportFilesZip(id, out);
  if (!out.closed) await once(out, 'close');
  return { entries: await readZip(path), result };
}

describe('export as files', () => {
  it('tts: each answer as received, named after the row, clashes numbered; the zip holds the same', async () => {
    const h = await startHarness();
    const csv = await file(
      h,
      'lines.csv',
      'text,name\nYour parcel has arrived.,greeting\nThank you for calling.,\nGoodbye!,Greeting\nSee you.,../../etc/passwd\nBye.,.hidden\n',
    );
    const r = await createAndRun(h, { capability: 'tts', paths: [csv] });
    const saved = r.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { file: string }).file);
    const dir = join(h.dir, 'out', 'speech'); // created, parents too
    const x = await h.engine.exportFiles(r.id, dir);
    expect(x).toMatchObject({ dir, written: 5, noFile: 0, problemCount: 0 });
    const names = ['greeting.wav', 'row-3.wav', 'Greeting (2).wav', 'etc passwd.wav', 'hidden.wav'];
    expect(sorted(dir)).toEqual([...names].sort());
    // Never a path out of the folder, never a dot file.
    expect(readdirSync(dir).some((n) => n.startsWith('.') || n.includes('/'))).toBe(false);
    for (const [i, name] of names.entries()) {
      expect(readFileSync(join(dir, name)).equals(readFileSync(join(h.engine.outputsDir(r.id), saved[i] ?? ''))), name).toBe(true);
    }
    const zip = await zipOf(h, r.id);
    expect([...zip.entries.keys()]).toEqual(names);
    for (const name of names) expect(zip.entries.get(name)?.equals(readFileSync(join(dir, name))), name).toBe(true);
    expect(zip.result).toMatchObject({ entries: 5, noFile: 0, problemCount: 0 });
  });

  it('never overwrites: files already in the folder keep their bytes, the new ones are numbered', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text,name\nHello.,greeting\nHi.,greeting\n');
    const r = await createAndRun(h, { capability: 'tts', paths: [csv] });
    const dir = join(h.dir, 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'greeting.wav'), 'my own recording');
    writeFileSync(join(dir, 'GREETING (3).wav'), 'another one');
    const first = await h.engine.exportFiles(r.id, dir);
    expect(first.written).toBe(2);
    expect(readFileSync(join(dir, 'greeting.wav'), 'utf8')).toBe('my own recording');
    expect(readFileSync(join(dir, 'GREETING (3).wav'), 'utf8')).toBe('another one');
    const out = h.engine.outputsDir(r.id);
    expect(readFileSync(join(dir, 'greeting (2).wav')).equals(readFileSync(join(out, 'greeting.wav')))).toBe(true);
    // "(3)" is taken on a case-sensitive disk only as GREETING (3); the export's own names are
    // compared case-insensitively, so it moves on only when the folder says EEXIST.
    const third = sorted(dir).filter((n) => !['greeting.wav', 'GREETING (3).wav', 'greeting (2).wav'].includes(n));
    expect(third).toHaveLength(1);
    expect(readFileSync(join(dir, third[0] ?? '')).equals(readFileSync(join(out, 'greeting (2).wav')))).toBe(true);
    // Exporting again into the same folder adds copies; nothing is replaced.
    const before = new Map(sorted(dir).map((n) => [n, readFileSync(join(dir, n))]));
    const again = await h.engine.exportFiles(r.id, dir);
    expect(again.written).toBe(2);
    expect(sorted(dir)).toHaveLength(before.size + 2);
    for (const [n, bytes] of before) expect(readFileSync(join(dir, n)).equals(bytes), n).toBe(true);
  });

  it('transcribe: a .txt per recording named after the file, equal to the transcript (and .srt, .vtt, .json), in its subfolder of the dropped one', async () => {
    const h = await startHarness();
    const rec = join(h.dir, 'rec');
    mkdirSync(join(rec, 'monday'), { recursive: true });
    mkdirSync(join(rec, 'tuesday'), { recursive: true });
    copyFileSync(join(RECORDINGS, 'call-001-double-charge.wav'), join(rec, 'monday', 'call.wav'));
    copyFileSync(join(RECORDINGS, 'call-002-late-parcel.wav'), join(rec, 'tuesday', 'call.wav'));
    copyFileSync(join(RECORDINGS, 'call-003-cancel-plan.wav'), join(rec, 'refund.WAV'));
    const r = await createAndRun(h, { capability: 'transcribe', paths: [rec] });
    expect(r.jobs.every((j) => j.state === 'succeeded')).toBe(true);
    const dir = join(h.dir, 'transcripts');
    const x = await h.engine.exportFiles(r.id, dir);
    // A transcript is four files under one name: its text, its subtitles twice and its result.
    expect(x.written).toBe(12);
    const all = (base: string) => ['json', 'srt', 'txt', 'vtt'].map((e) => `${base}.${e}`);
    expect(sorted(dir)).toEqual([...all('refund'), 'monday', 'tuesday'].sort());
    expect(sorted(join(dir, 'monday'))).toEqual(all('call'));
    expect(sorted(join(dir, 'tuesday'))).toEqual(all('call'));
    const byName = new Map<string, string>();
    byName.set('monday/call.txt', r.jobs.find((j) => j.source.includes(join('monday', 'call.wav')))?.result_json ?? '');
    byName.set('tuesday/call.txt', r.jobs.find((j) => j.source.includes(join('tuesday', 'call.wav')))?.result_json ?? '');
    byName.set('refund.txt', r.jobs.find((j) => j.source.includes('refund'))?.result_json ?? '');
    for (const [name, result] of byName) {
      const text = describeCapability('transcribe').offers(JSON.parse(result));
      expect(text, name).toBeTruthy();
      expect(readFileSync(join(dir, name), 'utf8'), name).toBe(text);
    }
    // The zip has the same files in the same folders.
    const files = [...all('refund'), ...all('monday/call'), ...all('tuesday/call')].sort();
    const zip = await zipOf(h, r.id);
    expect([...zip.entries.keys()].sort()).toEqual(files);
    for (const name of files) expect(zip.entries.get(name)?.toString('utf8')).toBe(readFileSync(join(dir, name), 'utf8'));
  });

  it('text: line-N.txt (or the name column) holding the result text; failed items counted, not written', async () => {
    const h = await startHarness();
    const txt = await file(h, 'tickets.txt', 'My refund has not arrived yet.\n\nThe parcel never came, where is my delivery?\n');
    const r = await createAndRun(h, { capability: 'text', paths: [txt], task: 'summary' });
    const dir = join(h.dir, 'summaries');
    // A third item that did not succeed: counted as having no file.
    h.engine.db
      .prepare(`UPDATE jobs SET state = 'failed', result_json = NULL WHERE batch_id = ? AND seq = (SELECT MAX(seq) FROM jobs WHERE batch_id = ?)`)
      .run(r.id, r.id);
    const x = await h.engine.exportFiles(r.id, dir);
    expect(x).toMatchObject({ written: 1, noFile: 1, problemCount: 0 });
    expect(sorted(dir)).toEqual(['line-1.txt']);
    // The sandbox's summary is made up, and its file says so first (A21).
    expect(readFileSync(join(dir, 'line-1.txt'), 'utf8')).toBe(
      `[${MADE_UP_WORDS}]\n\n${(JSON.parse(r.jobs[0]?.result_json ?? '{}') as { text: string }).text}`,
    );

    const csv = await file(h, 'named.csv', 'input,name\nPlease cancel my plan.,ticket 7/A\n');
    const named = await createAndRun(h, { capability: 'text', paths: [csv], task: 'reply' });
    const dir2 = join(h.dir, 'replies');
    await h.engine.exportFiles(named.id, dir2);
    expect(sorted(dir2)).toEqual(['ticket 7 A.txt']);
  });

  it('text from the API reaches the .txt file made inert, line breaks and tabs kept', async () => {
    const h = await startHarness();
    const txt = await file(h, 'tickets.txt', 'My refund has not arrived yet.\n');
    const r = await createAndRun(h, { capability: 'text', paths: [txt], task: 'summary' });
    // Clear the screen, a command on the clipboard (OSC 52), a disguised link (OSC 8), a C1 CSI, a CR over the line.
    const evil = 'one\n\ttwo \x1b[2J\x1b]52;c;cm0gLXJmIH4K\x07\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ \u009b31m\rAll items sent.';
    h.engine.db.prepare(`UPDATE jobs SET result_json = json_object('text', ?, 'task', 'summary', 'label', NULL) WHERE batch_id = ?`).run(evil, r.id);
    const dir = join(h.dir, 'evil');
    await h.engine.exportFiles(r.id, dir);
    const out = readFileSync(join(dir, 'line-1.txt'), 'utf8');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toBe(
      'one\n\ttwo \\u001b[2J\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u001b]8;;https://evil.example/\\u001b\\click\\u001b]8;;\\u001b\\ \\u009b31m\\u000dAll items sent.',
    );
  });

  it('names a succeeded item whose saved answer is gone, and writes the rest', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text,name\nOne.,one\nTwo.,two\n');
    const r = await createAndRun(h, { capability: 'tts', paths: [csv] });
    rmSync(join(h.engine.outputsDir(r.id), 'one.wav'));
    const dir = join(h.dir, 'out');
    const x = await h.engine.exportFiles(r.id, dir);
    expect(x.written).toBe(1);
    expect(x.problemCount).toBe(1);
    expect(x.problems[0]?.item).toBe(r.jobs[0]?.source);
    expect(x.problems[0]?.message).toContain('one.wav cannot be read (moved or deleted)');
    // The same as a code, for the window to word.
    expect(x.problems[0]?.problem).toEqual({ code: 'saved_unreadable', path: join(h.engine.outputsDir(r.id), 'one.wav'), error: 'ENOENT' });
    expect(sorted(dir)).toEqual(['two.wav']);
    const zip = await zipOf(h, r.id);
    expect([...zip.entries.keys()]).toEqual(['two.wav']);
    expect(zip.result.problemCount).toBe(1);
  });

  it('refuses capabilities with nothing per item to write, naming what to use instead', async () => {
    const h = await startHarness();
    const csv = await file(h, 'notes.csv', 'input\nalpha\n');
    const r = await createAndRun(h, { capability: 'embeddings', paths: [csv] });
    const dir = join(h.dir, 'nothing');
    const refused = h.engine.exportFiles(r.id, dir);
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(h.engine.exportFiles(r.id, dir)).rejects.toThrow(/no file per item.*--format csv/);
    expect(() => readdirSync(dir)).toThrow(); // not even the folder was made
  });

  it('a target that is a file is refused before anything is written', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text\nOne.\n');
    const r = await createAndRun(h, { capability: 'tts', paths: [csv] });
    const blocker = await file(h, 'blocker', 'x');
    await expect(h.engine.exportFiles(r.id, blocker)).rejects.toThrow(/a file of that name is in the way|is a file, not a folder/);
  });

  it('exports 10,000 items page by page: every file written, names unique, the zip complete', async () => {
    const h = await startHarness();
    const n = 10_000;
    const lines = Array.from({ length: n }, (_, i) => `note ${i}`);
    const txt = await file(h, 'many.txt', `${lines.join('\n')}\n`);
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'summary' });
    const id = created.batch?.id ?? '';
    // Not sent: marked succeeded with a result, as the runner would leave them.
    h.engine.db
      .prepare(
        `UPDATE jobs SET state = 'succeeded', finished_at = 0, result_json = json_object('text', 'summary of ' || seq, 'task', 'summary', 'label', NULL) WHERE batch_id = ?`,
      )
      .run(id);
    const dir = join(h.dir, 'many');
    const x = await h.engine.exportFiles(id, dir);
    expect(x).toMatchObject({ written: n, noFile: 0, problemCount: 0 });
    const names = readdirSync(dir);
    expect(names).toHaveLength(n);
    expect(names).toContain('line-1.txt');
    expect(names).toContain(`line-${n}.txt`);
    const zip = await zipOf(h, id);
    expect(zip.entries.size).toBe(n);
    expect(zip.entries.get('line-1.txt')?.toString('utf8')).toBe(readFileSync(join(dir, 'line-1.txt'), 'utf8'));
  });
});
