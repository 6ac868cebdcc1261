import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, stat, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import { measureFile } from '../../../src/main/engine/importers/measure-file';
import { isRoot, MEDIA_FIXTURES, pdf, png, put, tempDirs, tiff, wav, writeLargePdf } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('importFiles: valid input', () => {
  it('walks folders recursively and returns items sorted by path with hash, size and units', async () => {
    const dir = await tmp.make();
    const a = wav(3.2, 1);
    const b = wav(1, 2);
    await put(join(dir, 'z-last.wav'), a);
    await put(join(dir, 'calls', 'monday', 'b.wav'), b);
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(problems).toEqual([]);
    expect(items.map((i) => i.path)).toEqual([join(dir, 'calls', 'monday', 'b.wav'), join(dir, 'z-last.wav')]);
    const last = items[1];
    expect(last).toMatchObject({ size: a.length, sha256: sha(a), mime: 'audio/wav', units: 4, unitsExact: true });
    expect(last?.mtimeMs).toBe((await stat(join(dir, 'z-last.wav'))).mtimeMs);
    expect(items[0]?.units).toBe(1);
  });

  it('gives the same order whatever order the paths are given in', async () => {
    const dir = await tmp.make();
    const paths = await Promise.all(['c.wav', 'a.wav', 'b.wav'].map((n, i) => put(join(dir, n), wav(1, i + 1))));
    const forward = await importFiles(paths, 'transcribe');
    const backward = await importFiles([...paths].reverse(), 'transcribe');
    expect(forward.items.map((i) => i.path)).toEqual([join(dir, 'a.wav'), join(dir, 'b.wav'), join(dir, 'c.wav')]);
    expect(backward.items).toEqual(forward.items);
  });

  it('counts PDF and TIFF pages, images as one page, and reads the duration of audio that is not WAV', async () => {
    const dir = await tmp.make();
    await put(join(dir, 'two.pdf'), pdf(2));
    await put(join(dir, 'scan.png'), png(3, 2));
    await copyFile(join(MEDIA_FIXTURES, 'page.jpg'), join(dir, 'photo.jpg'));
    await put(
      join(dir, 'fax.tiff'),
      tiff([
        { width: 4, height: 4 },
        { width: 4, height: 4 },
      ]),
    );
    const docs = await importFiles([dir], 'ocr');
    expect(docs.problems).toEqual([]);
    const units = Object.fromEntries(docs.items.map((i) => [i.path.slice(dir.length + 1), [i.mime, i.units, i.unitsExact]]));
    expect(units).toEqual({
      'fax.tiff': ['image/tiff', 2, true],
      'photo.jpg': ['image/jpeg', 1, true],
      'scan.png': ['image/png', 1, true],
      'two.pdf': ['application/pdf', 2, true],
    });

    // 2.5 s at 32 kbit/s: the old 128 kbit/s guess said 1 s; the file says 2.7 s.
    await copyFile(join(MEDIA_FIXTURES, 'tone-cbr-no-header.mp3'), join(dir, 'call.mp3'));
    const audio = await importFiles([join(dir, 'call.mp3')], 'transcribe');
    expect(audio.items[0]).toMatchObject({ mime: 'audio/mpeg', units: 3, unitsExact: false });
  });

  it('streams past the 64 KiB head: pages behind 1.5 MB of content and the hash of all bytes count', async () => {
    const dir = await tmp.make();
    const path = join(dir, 'big.pdf');
    await writeLargePdf(path, 1_500_000, 3);
    const bytes = await readFile(path);
    const { items } = await importFiles([path], 'ocr');
    expect(items[0]).toMatchObject({ units: 3, unitsExact: true, size: bytes.length, sha256: sha(bytes) });

    const long = wav(70, 3); // 1.1 MB: duration comes from the header, hash from every chunk
    const wavPath = await put(join(dir, 'long.wav'), long);
    const res = await importFiles([wavPath], 'transcribe');
    expect(res.items[0]).toMatchObject({ units: 70, unitsExact: true, sha256: sha(long) });
  });

  it('reports progress and honours an abort signal', async () => {
    const dir = await tmp.make();
    for (let i = 0; i < 9; i++) await put(join(dir, `f${i}.wav`), wav(1, i + 1));
    const calls: [number, number][] = [];
    await importFiles([dir], 'transcribe', { onProgress: (d, t) => calls.push([d, t]) });
    expect(calls[0]).toEqual([0, 9]);
    expect(calls.at(-1)).toEqual([9, 9]);
    expect(calls.map(([d]) => d)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const controller = new AbortController();
    controller.abort();
    await expect(importFiles([dir], 'transcribe', { signal: controller.signal })).rejects.toThrow(/abort/i);

    // Cancelled half-way with the caller's own reason: rejected, not turned into file problems.
    const midway = new AbortController();
    const onProgress = (done: number) => {
      if (done === 2) midway.abort(new Error('user cancelled'));
    };
    await expect(importFiles([dir], 'transcribe', { signal: midway.signal, onProgress })).rejects.toThrow('user cancelled');
  });
});

describe('importFiles: problems', () => {
  it('skips hidden files and folders, and says how many in one line per chosen folder', async () => {
    const dir = await tmp.make();
    await put(join(dir, '.hidden.wav'), wav(1, 1));
    await put(join(dir, '.git', 'inside.wav'), wav(1, 2));
    await put(join(dir, 'visible.wav'), wav(1, 3));
    await put(join(dir, 'sub', '.DS_Store'), Buffer.from('x'));
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([join(dir, 'visible.wav')]);
    expect(problems).toMatchObject([
      {
        source: dir,
        row: null,
        message: `${dir}: skipped 2 hidden file(s) and 1 hidden folder(s) (names starting with ".", such as ".DS_Store": system, sync and backup files; what is inside a hidden folder is not looked at). To import a hidden file, choose it by name.`,
      },
    ]);
    // Chosen by name, a hidden file is taken, and nothing is said.
    const chosen = await importFiles([join(dir, '.hidden.wav')], 'transcribe');
    expect(chosen.items.map((i) => i.path)).toEqual([join(dir, '.hidden.wav')]);
    expect(chosen.problems).toEqual([]);
  });

  it('reports a missing path and still imports the valid files', async () => {
    const dir = await tmp.make();
    const good = await put(join(dir, 'good.wav'), wav(1));
    const missing = join(dir, 'gone.wav');
    const { items, problems } = await importFiles([missing, good], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([good]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: missing, row: null });
    expect(problems[0]?.message).toMatch(/gone\.wav does not exist.*choose the file again/);
  });

  it('reports an empty file', async () => {
    const dir = await tmp.make();
    const empty = await put(join(dir, 'empty.wav'), '');
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(items).toEqual([]);
    expect(problems).toEqual([
      { source: empty, row: null, message: expect.stringMatching(/empty\.wav is empty \(0 bytes\).*copied completely/), code: { code: 'file_empty' } },
    ]);
  });

  it('reports files whose content does not fit the capability', async () => {
    const dir = await tmp.make();
    const txt = await put(join(dir, 'notes.wav'), 'not audio at all, just text named .wav');
    const doc = await put(join(dir, 'invoice.pdf'), pdf(1));
    const res = await importFiles([dir], 'transcribe');
    expect(res.items).toEqual([]);
    const byPath = Object.fromEntries(res.problems.map((p) => [p.source, p.message]));
    expect(byPath[txt]).toMatch(/notes\.wav is not in a supported format.*wav, mp3.*Convert the recording/);
    expect(byPath[doc]).toMatch(/invoice\.pdf is a PDF document, but Transcription accepts audio only.*OCR batch/);

    const audio = await put(join(dir, 'a', 'call.wav'), wav(1));
    const ocr = await importFiles([audio], 'ocr');
    expect(ocr.problems[0]?.message).toMatch(/call\.wav is an audio file \(wav\), but OCR accepts documents and scans only \(pdf, png/);
  });

  it('reports a file listed twice, directly or inside a chosen folder, and imports it once', async () => {
    const dir = await tmp.make();
    const f = await put(join(dir, 'a.wav'), wav(1));
    const { items, problems } = await importFiles([f, dir, f], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([f]);
    expect(problems).toMatchObject([{ source: f, row: null, message: expect.stringMatching(/a\.wav was chosen more than once.*imported once/) }]);
  });

  it('reports a file chosen besides its folder once, whatever the order, in a sub-folder too, by a relative path too', async () => {
    const dir = await tmp.make();
    const f = await put(join(dir, 'sub', 'deeper', 'a.wav'), wav(1, 1));
    const g = await put(join(dir, 'b.wav'), wav(1, 2));
    for (const paths of [
      [dir, f, g],
      [f, dir, g],
      [g, dir, f],
      [dir, relative(process.cwd(), f), relative(process.cwd(), g)],
    ]) {
      const { items, problems } = await importFiles(paths, 'transcribe');
      expect(items.map((i) => i.path)).toEqual([g, f]);
      expect(problems.map((p) => p.source)).toEqual([g, f]);
      for (const p of problems) expect(p.message).toBe(`${p.source} was chosen more than once (directly or inside a chosen folder); it is imported once.`);
    }
  });

  it('lists many nested folders (read ahead) in order of their full paths', async () => {
    const dir = await tmp.make();
    const names = ['a', 'a-b', 'a.c', 'b', 'b b', 'c'];
    const expected: string[] = [];
    let n = 0;
    for (const top of names) {
      for (const sub of names) {
        for (const file of ['x.wav', 'a-1.wav']) expected.push(await put(join(dir, top, sub, file), wav(1, ++n)));
      }
      expected.push(await put(join(dir, top, 'z.wav'), wav(1, ++n)));
    }
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(problems).toEqual([]);
    expect(items.map((i) => i.path)).toEqual([...expected].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('reports a folder chosen twice, or inside another chosen folder, and imports its files once', async () => {
    const dir = await tmp.make();
    const f = await put(join(dir, 'sub', 'a.wav'), wav(1));
    const twice = await importFiles([dir, dir], 'transcribe');
    expect(twice.items.map((i) => i.path)).toEqual([f]);
    expect(twice.problems).toMatchObject([
      { source: dir, row: null, message: `${dir} was chosen more than once (directly or inside a chosen folder); its files are imported once.` },
    ]);
    const nested = await importFiles([join(dir, 'sub'), dir], 'transcribe');
    expect(nested.items.map((i) => i.path)).toEqual([f]);
    expect(nested.problems).toMatchObject([{ source: join(dir, 'sub'), row: null, message: expect.stringContaining('sub was chosen more than once') }]);
    // The same folder reached under another name (a link) is named as such; as for files, the
    // path first in order is kept, whatever order the folders are chosen in.
    await symlink(join(dir, 'sub'), join(dir, 'alias'));
    for (const chosen of [
      [join(dir, 'sub'), join(dir, 'alias')],
      [join(dir, 'alias'), join(dir, 'sub')],
    ]) {
      const aliased = await importFiles(chosen, 'transcribe');
      expect(aliased.items.map((i) => i.path)).toEqual([join(dir, 'alias', 'a.wav')]);
      expect(aliased.problems.map((p) => p.message)).toEqual([
        `${join(dir, 'sub')} is the same folder as ${join(dir, 'alias')}, which is already included; its files are imported once.`,
      ]);
    }
  });

  it('reports the same content twice as a duplicate of the first path', async () => {
    const dir = await tmp.make();
    const bytes = wav(2, 5);
    const first = await put(join(dir, 'a', 'call.wav'), bytes);
    const second = await put(join(dir, 'b', 'call-copy.wav'), bytes);
    const third = await put(join(dir, 'c.wav'), bytes);
    const { items, problems } = await importFiles([join(dir, 'b'), third, join(dir, 'a')], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([first]);
    expect(problems.map((p) => p.source)).toEqual([second, third]);
    for (const p of problems) expect(p.message).toContain(`is a duplicate of ${first} (identical content); skipped`);
  });

  it('follows symlinks, detects a symlink loop, reports it once and continues', async () => {
    const dir = await tmp.make();
    const root = join(dir, 'root');
    await put(join(root, 'a.wav'), wav(1, 1));
    await put(join(root, 'sub', 'b.wav'), wav(1, 2));
    await symlink(root, join(root, 'sub', 'back-to-root'));
    await put(join(dir, 'elsewhere', 'c.wav'), wav(1, 3));
    await symlink(join(dir, 'elsewhere'), join(root, 'linked'));
    const { items, problems } = await importFiles([root], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([join(root, 'a.wav'), join(root, 'linked', 'c.wav'), join(root, 'sub', 'b.wav')]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.source).toBe(join(root, 'sub', 'back-to-root'));
    expect(problems[0]?.message).toMatch(/links back to .*root, which contains it \(a folder loop\); the link was not followed/);
  });

  it('detects a loop made of two links between two folders', async () => {
    const dir = await tmp.make();
    await put(join(dir, 'x', 'one.wav'), wav(1, 1));
    await put(join(dir, 'y', 'two.wav'), wav(1, 2));
    await symlink(join(dir, 'y'), join(dir, 'x', 'to-y'));
    await symlink(join(dir, 'x'), join(dir, 'y', 'to-x'));
    const { items, problems } = await importFiles([join(dir, 'x')], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([join(dir, 'x', 'one.wav'), join(dir, 'x', 'to-y', 'two.wav')]);
    expect(problems.map((p) => p.source)).toEqual([join(dir, 'x', 'to-y', 'to-x')]);
    expect(problems[0]?.message).toContain('folder loop');
  });

  it('reports a link to an already included file, and a broken link', async () => {
    const dir = await tmp.make();
    const real = await put(join(dir, 'real.wav'), wav(1));
    await symlink(real, join(dir, 'alias.wav'));
    await symlink(join(dir, 'nowhere.wav'), join(dir, 'broken.wav'));
    const { items, problems } = await importFiles([dir], 'transcribe');
    // alias.wav sorts first, so the link is the path kept and real.wav is the one reported.
    expect(items.map((i) => i.path)).toEqual([join(dir, 'alias.wav')]);
    const messages = Object.fromEntries(problems.map((p) => [p.source, p.message]));
    expect(messages[real]).toMatch(/real\.wav is a link to the same file as .*alias\.wav; skipped/);
    expect(messages[join(dir, 'broken.wav')]).toMatch(/broken\.wav is a link to something that no longer exists; skipped\. Fix or delete the link/);
  });

  it('keeps the first path in order of two to one file through links, wherever the link and the file are', async () => {
    const dir = await tmp.make();
    const real = await put(join(dir, 'x', 'real.wav'), wav(1, 1));
    await put(join(dir, 'b', 'target.wav'), wav(1, 2));
    await put(join(dir, 'z', 'deep.wav'), wav(1, 3));
    await put(join(dir, '.hidden.wav'), wav(1, 4));
    const elsewhere = await put(join(await tmp.make(), 'out.wav'), wav(1, 5));
    const root = join(dir, 'root');
    await mkdir(root);
    await symlink(real, join(dir, 'y-later-link.wav')); // the file came first (folder x is done)
    await symlink(join(dir, 'b', 'target.wav'), join(dir, 'a-early-link.wav')); // the link comes first
    await symlink(join(dir, 'z'), join(dir, 'm-folder-link')); // a folder link before its folder
    await symlink(join(dir, '.hidden.wav'), join(dir, 'to-hidden.wav')); // the hidden file is not taken
    await symlink(join(dir, 'x', 'real.wav'), join(dir, 'x', 'the-same.wav')); // in the folder being walked, after the file
    await symlink(elsewhere, join(root, 'in.wav')); // a folder not chosen
    const { items, problems } = await importFiles([dir, join(root, 'in.wav')], 'transcribe');
    expect(items.map((i) => i.path.slice(dir.length + 1))).toEqual([
      'a-early-link.wav',
      'm-folder-link/deep.wav',
      'root/in.wav',
      'to-hidden.wav',
      'x/real.wav',
    ]);
    const messages = Object.fromEntries(problems.map((p) => [p.source.slice(dir.length + 1), p.message]));
    expect(Object.keys(messages).sort()).toEqual(['', 'b/target.wav', 'root/in.wav', 'x/the-same.wav', 'y-later-link.wav', 'z']);
    expect(messages['']).toMatch(/: skipped 1 hidden file\(s\) \(names starting with "\.", such as "\.hidden\.wav"/);
    expect(messages['b/target.wav']).toBe(
      `${join(dir, 'b', 'target.wav')} is a link to the same file as ${join(dir, 'a-early-link.wav')}; skipped, so it is processed and billed once.`,
    );
    expect(messages['y-later-link.wav']).toContain(`is a link to the same file as ${real}; skipped`);
    expect(messages['x/the-same.wav']).toContain(`is a link to the same file as ${real}; skipped`);
    expect(messages.z).toBe(`${join(dir, 'z')} is the same folder as ${join(dir, 'm-folder-link')}, which is already included; its files are imported once.`);
    // root/in.wav is in the chosen folder and chosen by name: taken once, said once.
    expect(messages['root/in.wav']).toContain('was chosen more than once');
  });

  it('a link chosen by name to a file inside a chosen folder counts once, in either order', async () => {
    const dir = await tmp.make();
    const inside = await put(join(dir, 'in', 'call.wav'), wav(1, 1));
    const other = await tmp.make();
    await symlink(inside, join(other, 'a-link.wav'));
    await symlink(inside, join(other, 'z-link.wav'));
    for (const chosen of [
      [join(dir, 'in'), join(other, 'a-link.wav'), join(other, 'z-link.wav')],
      [join(other, 'z-link.wav'), join(other, 'a-link.wav'), join(dir, 'in')],
    ]) {
      const { items, problems } = await importFiles(chosen, 'transcribe');
      const kept = [inside, join(other, 'a-link.wav')].sort()[0] as string;
      expect(items.map((i) => i.path)).toEqual([kept]);
      expect(problems.map((p) => p.message).every((m) => m.includes(`is a link to the same file as ${kept}`))).toBe(true);
      expect(problems).toHaveLength(2);
    }
  });

  it.skipIf(isRoot)('reports an unreadable file (chmod 000) and an unreadable folder', async () => {
    const dir = await tmp.make();
    const locked = await put(join(dir, 'locked.wav'), wav(1, 1));
    await mkdir(join(dir, 'closed'));
    await put(join(dir, 'closed', 'x.wav'), wav(1, 2));
    await chmod(locked, 0o000);
    await chmod(join(dir, 'closed'), 0o000);
    try {
      const { items, problems } = await importFiles([dir], 'transcribe');
      expect(items).toEqual([]);
      const messages = Object.fromEntries(problems.map((p) => [p.source, p.message]));
      expect(messages[locked]).toMatch(/permission denied\. Give your user read access/);
      expect(messages[join(dir, 'closed')]).toMatch(/permission denied.*Its files were not imported/);
    } finally {
      await chmod(locked, 0o644);
      await chmod(join(dir, 'closed'), 0o755);
    }
  });

  it('reports a path that cannot be read as a file (runs as root too, where chmod 000 does not stop reads)', async () => {
    // Root reads chmod 000 files, so the unreadable case is exercised with a folder given where a
    // file is read: the same "cannot read this file" path in measureFile.
    const dir = await tmp.make();
    const folder = join(dir, 'looks-like.wav');
    await mkdir(folder);
    const result = await measureFile(folder, 'transcribe');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.source).toBe(folder);
      expect(result.problem.message).toMatch(/looks-like\.wav is not a regular file.*Choose the files themselves/);
    }
  });

  it('when a file cannot be opened the problem names it and the cause', async () => {
    const dir = await tmp.make();
    const result = await measureFile(join(dir, 'vanished.wav'), 'transcribe');
    expect(result).toMatchObject({
      ok: false,
      problem: { source: join(dir, 'vanished.wav'), row: null, message: expect.stringMatching(/vanished\.wav does not exist/) },
    });
  });

  it('a copy with identical bytes in a hidden folder is not reported as a duplicate (only counted as hidden)', async () => {
    const dir = await tmp.make();
    const bytes = wav(1, 9);
    const visible = await put(join(dir, 'x.wav'), bytes);
    await put(join(dir, '.cache', 'x.wav'), bytes);
    await copyFile(visible, join(dir, '.x-backup.wav'));
    const res = await importFiles([dir], 'transcribe');
    expect(res.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/: skipped 1 hidden file\(s\) and 1 hidden folder\(s\) \(names starting with "\.", such as "\.cache"/),
    ]);
    expect(res.items).toHaveLength(1);
  });
});
