// "Files out" as one zip, for the browser host's download: the same items under the same names as
// export-files.ts writes into a folder (its itemFiles and ExportNames), streamed with yazl. Entries
// are added a few at a time, only as fast as the zip is read: each file is opened when its turn
// comes and piped through, so neither the batch nor any file, nor the zip, is ever held in memory.
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ResultSource } from '../read-models/job-results';
import type { FilesFormat } from '../../../shared/capabilities/result-files';
import { En16931Report, ExportNames, itemFileKindOrRefuse, itemFiles, type FilesBatch, type ItemPart, type ItemProblem } from './export-files';

/** Entries added ahead of the one being written. */
const AHEAD = 16;

export interface ZipExport {
  entries: number;
  /** Items that were not succeeded: no file. */
  noFile: number;
  /** Succeeded items left out (their saved answer was moved or deleted), the first 50. */
  problems: ItemProblem[];
  problemCount: number;
  /** The UBL invoices zipped: how many are declared EN 16931, and the report's entry naming what the others lack (null: no UBL file). */
  ubl: { declared: number; notDeclared: number; report: string } | null;
}

/**
 * Streams the batch's item files as a zip into `out` (`format`: every file of each item, or only
 * its UBL invoice or subtitles, as export-files.ts writes them into a folder). Rejects when `out` fails or closes early
 * (the browser went away) or a file cannot be read half way; the zip is then incomplete.
 */
export async function writeFilesZip(source: ResultSource, batch: FilesBatch, out: Writable, format: FilesFormat = 'files'): Promise<ZipExport> {
  itemFileKindOrRefuse(batch, format);
  const counts = await source.counts();
  const result: ZipExport = { entries: 0, noFile: counts.total - counts.succeeded, problems: [], problemCount: 0, ubl: null };
  // Loaded here, not at start-up: only the browser host's zip download needs it.
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (e: unknown): void => {
    failure ??= e instanceof Error ? e : new Error(String(e));
    poke();
  };
  zip.on('error', (e: unknown) => {
    fail(e);
    output.destroy(failure ?? undefined);
  });
  // Settles with the error instead of rejecting, so an early failure is never an unhandled rejection.
  const piped = pipeline(output, out).then(
    () => null,
    (e: unknown) => {
      fail(e);
      return failure;
    },
  );

  const names = new ExportNames();
  // The same EN 16931 report as a folder export writes beside its UBL files, as the zip's last entry.
  const report = new En16931Report();
  let added = 0;
  let started = 0;
  for await (const entry of itemFiles(source, batch, format)) {
    if (failure) break;
    if (!entry.ok) {
      result.problemCount++;
      if (result.problems.length < 50) result.problems.push({ item: entry.item, message: entry.message, problem: entry.problem });
      if (entry.name) names.claimAllAny(entry.name.base, entry.name.exts); // the same names as a folder export
      continue;
    }
    const f = entry.file;
    const claimed = names.claimAllAny(
      f.base,
      f.parts.map((p) => p.ext),
    );
    report.add(f, claimed);
    for (const [i, part] of f.parts.entries()) {
      const name = claimed[i] ?? '';
      // Dropped once handed over, so the zip's list of entries keeps no text or path alive.
      let content: ItemPart['content'] | null = part.content;
      const size = part.content.kind === 'text' ? Buffer.byteLength(part.content.text, 'utf8') : part.content.size;
      // Audio and images are compressed already: stored as they are; text is deflated.
      zip.addReadStreamLazy(name, { mtime: f.mtime, compress: part.content.kind === 'text', size }, (cb) => {
        started++;
        poke();
        const c = content;
        content = null;
        if (c === null) return cb(new Error(`${name} was asked for twice`), Readable.from([]));
        if (c.kind === 'text') return cb(null, Readable.from([Buffer.from(c.text, 'utf8')], { objectMode: false }));
        const src = c.open();
        src.once('error', (e: NodeJS.ErrnoException) =>
          zip.emit('error', new Error(`${c.where} could not be read for the zip (${e.code ?? e.message}); put it back and download again.`)),
        );
        cb(null, src);
      });
      added++;
      result.entries++;
    }
    while (added - started > AHEAD && failure === null) await new Promise<void>((r) => (wake = r));
  }
  const text = failure ? null : report.csv();
  if (text !== null) {
    const [name = ''] = names.claimAllAny(En16931Report.BASE, ['csv']);
    zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime: new Date(), compress: true });
    result.entries++;
    result.ubl = { declared: report.declared, notDeclared: report.rows - report.declared, report: name };
  }
  if (!failure) zip.end();
  const err = await piped;
  if (err) throw err;
  return result;
}
