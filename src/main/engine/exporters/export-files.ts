// "Files out": every succeeded item of a batch written as a file of its own, named after its
// source file or its row. Answers saved as files (speech, images) are copied as received (from
// <data folder>/outputs/<batch id>/, or a team's shared store: job-results.ts); transcripts, OCR text and text results become a .txt, and a
// transcript also an .srt, a .vtt (cue-files.ts) and a .json of its result, all under one name;
// `srt` and `vtt` write only the subtitle file of each transcript. Nothing already in the folder
// is ever overwritten: each file is created exclusively ('wx'), and a name that is taken (by
// another item of the batch or by a file already there, for any of the item's files) gets " (2)",
// " (3)", ...
// The batch is read page by page and each copy is streamed, so any size exports in bounded memory.
// This module also gives the zip download (export-zip.ts) its items and names: one source of both.
import type { ExportProblem } from '../../../shared/export-problems';
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BatchCapability } from '../../../shared/domain';
import { OutputFile, readFromEInvoice } from '../../../shared/capabilities/catalog';
import {
  hasCues,
  hasInvoices,
  itemFileKind,
  noCuesMessage,
  noInvoicesMessage,
  noItemFilesMessage,
  textFileExtensions,
  type FilesFormat,
  type ItemFileKind,
} from '../../../shared/capabilities/result-files';
import { ublDocument } from './ubl-invoice';
import { csvField } from '../../../shared/csv-field';
import { storedChecks } from '../invoices/invoice-reviews';
import { correctedInvoice } from './export-records';
import { changedFields } from '../../../shared/invoices/invoice-corrections';
import { NOTHING_READ } from '../../../shared/invoices/invoice';
import type { CapabilityDescriptor, Cue } from '../../../shared/capabilities/descriptor';
import { capabilityFor } from '../capabilities/registry';
import { FilePayload } from '../capabilities/file-payload';
import { RowPayload, outputBase } from '../capabilities/row-payload';
import { UserError } from '../user-error';
import { StorageFailure } from '../queue/storage-failure';
import { numberedName, safeFileBase } from '../output-names';
import type { ResultRow, ResultSource } from '../read-models/job-results';
import { srtOf, vttOf } from './cue-files';
import { storedJson } from '../stored-json';
import { escapeControls, jsonInert } from '../../../shared/control-characters';
import { isMadeUp, MADE_UP_SHORT, MADE_UP_WORDS } from '../../../shared/made-up';

export interface FilesBatch {
  id: string;
  capability: BatchCapability;
}

/** One file of an item: its extension and what it holds. */
export interface ItemPart {
  /** Without the dot: "wav", "png", "txt", "srt". */
  ext: string;
  /** `where` names a saved answer in messages (its path, or the shared store). */
  content: { kind: 'saved'; where: string; size: number; open(): Readable } | { kind: 'text'; text: string };
}

/** One succeeded item as the files it becomes, all named `base` (or `base (n)`) with their extensions. */
export interface ItemFile {
  /** How messages name the item: its source ("calls/a.wav", "lines.csv row 3"). */
  item: string;
  /** The name before the extension, after the item's folder under the dropped one ("monday/call-001"). */
  base: string;
  /** When the item finished: the files' time in a zip. */
  mtime: Date;
  /** One or more, extensions all different. */
  parts: ItemPart[];
  /** For an invoice's UBL file: whether it is declared EN 16931, and the business terms it lacks. */
  ubl?: { en16931: boolean; missing: string[] };
}

/** A succeeded item that has no file to give after all (its saved answer was moved or deleted). */
export interface ItemProblem {
  item: string;
  message: string;
  /** The same as a code, for the window to word. */
  problem: ExportProblem;
}

/** `name`: the name the item would have had, kept so the items after it keep theirs. */
export type ItemEntry = { ok: true; file: ItemFile } | ({ ok: false; name?: { base: string; exts: string[] } } & ItemProblem);

export interface FilesExport {
  dir: string;
  /** Files written. */
  written: number;
  /** Items that were not succeeded (failed, cancelled or not done yet): no file. */
  noFile: number;
  /** Succeeded items whose file could not be given, the first 50 (`problemCount` counts all). */
  problems: ItemProblem[];
  problemCount: number;
  /** The UBL invoices written: how many are declared EN 16931, and the report naming what the others lack (null: no UBL file written). */
  ubl?: { declared: number; notDeclared: number; report: string } | null;
}

const MAX_LISTED_PROBLEMS = 50;

/**
 * The kind of file the capability's items become; refuses capabilities with none (or, for `srt`
 * and `vtt`, results that are not timed), saying what to use instead.
 */
export function itemFileKindOrRefuse(batch: { id: string; capability: BatchCapability }, format: FilesFormat = 'files'): ItemFileKind {
  const { id, capability } = batch;
  const kind = itemFileKind(capability);
  if (format === 'ubl') {
    if (!hasInvoices(capability)) throw new UserError(noInvoicesMessage(capability, id), { code: 'export_format', format, capability });
  } else if (format !== 'files' && !hasCues(capability))
    throw new UserError(noCuesMessage(capability, id, format), { code: 'export_format', format, capability });
  // Files of a capability without any: the export is the same refusal whichever of them was asked.
  if (kind === null) throw new UserError(noItemFilesMessage(capability, id), { code: 'export_format', format: 'files', capability });
  return kind;
}

/**
 * An invoice's result as its review left it, like the JSON export: the corrected invoice in place of
 * the reading, the reading kept as `original`, and the review (decision, who, when, note). Any other
 * result, or an invoice nobody reviewed, is as it came.
 */
function reviewedResult(desc: CapabilityDescriptor, result: unknown, row: ResultRow): unknown {
  if (desc.invoice === undefined || result === null || typeof result !== 'object' || Array.isArray(result)) return result;
  const corrected = correctedInvoice(row.corrected_json);
  const decided = Boolean(row.decision) || Boolean(row.review_note);
  if (corrected === null && !decided) return result;
  return {
    ...result,
    ...(corrected !== null ? { invoice: corrected } : {}),
    corrected: corrected !== null,
    original: corrected !== null ? (desc.invoice(result) ?? null) : null,
    review: decided
      ? {
          decision: row.decision ?? null,
          by: row.decided_by ?? null,
          at: row.decided_at === null || row.decided_at === undefined ? null : new Date(row.decided_at).toISOString(),
          note: row.review_note ?? null,
        }
      : null,
  };
}

/** The text files of a result (a .txt, and for a timed one .srt, .vtt and .json), as the format asks. */
function textParts(
  desc: CapabilityDescriptor,
  result: unknown,
  row: ResultRow,
  exts: readonly string[],
  ubl: { en16931: boolean; missing: string[] }[] = [],
): ItemPart[] | null {
  // Read once, for the .srt and the .vtt alike.
  let cues: Cue[] | null | undefined;
  const cuesOf = (): Cue[] | null => (cues ??= desc.cues?.(result, row.units) ?? null);
  const parts: ItemPart[] = [];
  // A made-up result says so in every file where a line fits (the .json has its `sandbox` field).
  const madeUp = isMadeUp(result);
  for (const ext of exts) {
    let text: string | null;
    if (ext === 'txt') {
      const offered = desc.offers(result);
      // The API's words, read with `cat` too: its control characters made inert (\n and \t kept).
      text = offered === null ? null : escapeControls(!madeUp ? offered : `[${MADE_UP_WORDS}]\n\n${offered}`);
    } else if (ext === 'json') text = result === null ? null : `${jsonInert(JSON.stringify(reviewedResult(desc, result, row), null, 2))}\n`;
    else if (ext === 'xml') {
      // The invoice as its review corrected it, else as read.
      const read = desc.invoice?.(result) ?? null;
      const corrected = correctedInvoice(row.corrected_json);
      const inv = corrected ?? read;
      // Nothing read, nothing to book: the other files of the item still come.
      if (inv === null) continue;
      const doc = ublDocument(inv, {
        id: `${row.seq}`,
        issueDate: new Date(row.finished_at ?? 0).toISOString().slice(0, 10),
        currency: 'EUR',
        checks: storedChecks(row.checks_json),
        madeUp,
        fromEInvoice: readFromEInvoice(result),
        review: row.decision ? { decision: row.decision, by: row.decided_by ?? null, at: row.decided_at ?? null } : null,
        corrected: corrected === null ? [] : changedFields(read ?? NOTHING_READ, corrected),
      });
      ubl.push({ en16931: doc.en16931, missing: doc.missing });
      text = doc.xml;
    } else {
      const c = cuesOf();
      const note = madeUp ? MADE_UP_SHORT : null;
      text = c === null ? null : ext === 'srt' ? srtOf(c, note) : vttOf(c, note);
    }
    if (text === null) return null;
    parts.push({ ext, content: { kind: 'text', text } });
  }
  return parts;
}

/**
 * The name an item's file starts with: the source file's name without extension, or the row's
 * name / row-N / line-N. A file from a subfolder of the dropped folder keeps that folder in front
 * ("monday/call-001"), each of its names made safe: no name can climb out of the export's folder.
 */
function baseOf(row: ResultRow): string {
  const payload = storedJson(row.payload_json);
  const file = FilePayload.safeParse(payload);
  if (file.success) {
    const name = basename(file.data.path);
    const base = safeFileBase(name.slice(0, name.length - extname(name).length)) || safeFileBase(name) || `item-${row.seq}`;
    const folders = (file.data.folder ?? '')
      .split('/')
      .map(safeFileBase)
      .filter((f) => f !== '');
    return [...folders, base].join('/');
  }
  const r = RowPayload.safeParse(payload);
  return r.success ? outputBase(r.data) : `item-${row.seq}`;
}

async function entryOf(source: ResultSource, row: ResultRow, batch: FilesBatch, kind: ItemFileKind, format: FilesFormat): Promise<ItemEntry> {
  const item = row.source;
  const base = baseOf(row);
  const mtime = new Date(row.finished_at ?? Date.now());
  const result = storedJson(row.result_json);
  if (kind === 'text') {
    const exts = textFileExtensions(batch.capability, format);
    const ubl: { en16931: boolean; missing: string[] }[] = [];
    const parts = textParts(capabilityFor(batch.capability).descriptor, result, row, exts, ubl);
    if (parts === null)
      return {
        ok: false,
        item,
        message: 'its stored result has no text (it may come from an older version); export the batch as CSV or JSON to see it',
        problem: { code: 'no_text' },
      };
    if (parts.length === 0)
      return {
        ok: false,
        item,
        message: 'no invoice fields were read from it, so there is no UBL invoice to write; open it in the window to see its text',
        problem: { code: 'no_invoice_fields' },
      };
    return { ok: true, file: { item, base, mtime, parts, ...(ubl[0] ? { ubl: ubl[0] } : {}) } };
  }
  const saved = OutputFile.safeParse(result);
  if (!saved.success || basename(saved.data.file) !== saved.data.file) {
    return { ok: false, item, message: 'its stored result names no saved file; export the batch as CSV or JSON to see it', problem: { code: 'no_saved_file' } };
  }
  const ext = extname(saved.data.file).slice(1).toLowerCase() || (batch.capability === 'image' ? 'png' : 'bin');
  const answer = await source.savedAnswer(row, saved.data.file);
  if (!answer.ok) return { ok: false, item, name: { base, exts: [ext] }, message: answer.message, problem: answer.problem };
  return { ok: true, file: { item, base, mtime, parts: [{ ext, content: { kind: 'saved', where: answer.where, size: answer.size, open: answer.open } }] } };
}

/** Every succeeded item as the files it becomes (or why it has none), in item order, a page at a time. */
export async function* itemFiles(source: ResultSource, batch: FilesBatch, format: FilesFormat = 'files'): AsyncGenerator<ItemEntry> {
  const kind = itemFileKindOrRefuse(batch, format);
  for await (const page of source.pages()) {
    for (const row of page) yield await entryOf(source, row, batch, kind, format);
  }
}

/**
 * The names of one export: `base.ext`, then `base (2).ext`, ... never two alike, compared
 * case-insensitively (as macOS and Windows do), and only a name `take` accepts (the folder
 * writer's exclusive create; the zip takes any). An item with several files (call.txt, call.srt,
 * ...) claims one number for all of them: the first under which every one is free. Remembers
 * where each base left off.
 */
export class ExportNames {
  private readonly used = new Set<string>();
  private readonly next = new Map<string, number>();

  async claim<T>(base: string, ext: string, take: (name: string) => Promise<T | null>): Promise<{ name: string; taken: T }> {
    const r = await this.claimAll(base, [ext], async ([name]) => take(name ?? ''));
    return { name: r.names[0] ?? '', taken: r.taken };
  }

  /** The names of one item's files (one per extension, all with the same number), taken together. */
  async claimAll<T>(base: string, exts: readonly string[], take: (names: string[]) => Promise<T | null>): Promise<{ names: string[]; taken: T }> {
    const keys = exts.map((ext) => `${base}.${ext}`.toLowerCase());
    for (let n = Math.max(1, ...keys.map((k) => this.next.get(k) ?? 1)); ; n++) {
      const names = exts.map((ext) => numberedName(base, ext, n));
      if (names.some((name) => this.used.has(name.toLowerCase()))) continue;
      const taken = await take(names);
      if (taken === null) continue;
      for (const name of names) this.used.add(name.toLowerCase());
      for (const k of keys) this.next.set(k, n + 1);
      return { names, taken };
    }
  }

  /** For writers that take every name (the zip). */
  claimAny(base: string, ext: string): string {
    return this.claimAllAny(base, [ext])[0] ?? '';
  }

  claimAllAny(base: string, exts: readonly string[]): string[] {
    const keys = exts.map((ext) => `${base}.${ext}`.toLowerCase());
    for (let n = Math.max(1, ...keys.map((k) => this.next.get(k) ?? 1)); ; n++) {
      const names = exts.map((ext) => numberedName(base, ext, n));
      if (names.some((name) => this.used.has(name.toLowerCase()))) continue;
      for (const name of names) this.used.add(name.toLowerCase());
      for (const k of keys) this.next.set(k, n + 1);
      return names;
    }
  }
}

/** A write into the chosen folder failed: a full or failing disk stops like storage does; anything else is the folder's. */
function writeError(e: unknown, path: string, written: number): Error {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  const so = `${written} file(s) were written before it; nothing was overwritten.`;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new StorageFailure(
      `The disk is full: ${path} could not be written (${code}). ${so} Free some space or choose another folder, then export again.`,
      code,
    );
  if (code === 'EIO' || code === 'EROFS')
    return new StorageFailure(
      `${path} could not be written (${code}). ${so} Check that the disk is connected and writable, or choose another folder, then export again.`,
      code,
    );
  const denied = code === 'EACCES' || code === 'EPERM';
  return new UserError(`${path} could not be written (${denied ? 'no permission' : code}). ${so} Choose a folder you can write to, then export again.`, {
    code: 'folder_unwritable',
    path,
    why: denied ? 'permission' : 'error',
    written,
  });
}

/** Creates an item's subfolder in the export; a file of that name in the way stops the export, saying so. */
async function makeFolder(folder: string, written: number, undo: () => Promise<void>): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (e) {
    await undo();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new UserError(
        `Cannot create the folder ${folder}: a file of that name is in the way. ${written} file(s) were written before it; nothing was overwritten. Move that file, or choose another folder, then export again.`,
        { code: 'folder_unwritable', path: folder, why: 'in_the_way', written },
      );
    throw writeError(e, folder, written);
  }
}

/** Creates `dir` (and its parents) when it is missing; refuses a path that is not a folder. */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const kind = code === 'EEXIST' || code === 'ENOTDIR' ? 'in_the_way' : code === 'EACCES' || code === 'EPERM' ? 'permission' : 'error';
    const why = kind === 'in_the_way' ? 'a file of that name is in the way' : kind === 'permission' ? 'no permission' : code;
    throw new UserError(`Cannot create the folder ${dir} (${why}). Choose a folder you can write to.`, {
      code: 'folder_unwritable',
      path: dir,
      why: kind,
      written: 0,
    });
  }
  if (!statSync(dir).isDirectory())
    throw new UserError(`${dir} is a file, not a folder. Choose a folder to write the results into.`, {
      code: 'folder_unwritable',
      path: dir,
      why: 'not_folder',
      written: 0,
    });
}

/**
 * The export's EN 16931 report (en16931-report.csv, beside the UBL files of a folder export and in
 * the zip download alike): one row per UBL file, whether it is declared EN 16931 and which business
 * terms it lacks. A UTF-8 BOM, so Excel reads the names right.
 *
 * It stays English whatever the window's language: it is a technical artefact read beside the XML
 * files, its columns named as every export's are, and its findings name the standard's business
 * terms and rules by their ids (BT-1, BR-CO-15) in the CEN's own English. The window shows none of
 * its sentences, only how many files are EN 16931 and where the report is, in its own words
 * (results:files.ubl / ublMissing).
 */
export class En16931Report {
  static readonly BASE = 'en16931-report';
  private readonly lines: string[] = [];
  declared = 0;

  get rows(): number {
    return this.lines.length;
  }

  /** Notes the item's UBL file, if it has one, under the name it was given (`names`: its parts' names, in order). */
  add(file: ItemFile, names: readonly string[]): void {
    if (!file.ubl) return;
    const xmlName = names[file.parts.findIndex((p) => p.ext === 'xml')] ?? '';
    if (file.ubl.en16931) this.declared++;
    this.lines.push([file.item, xmlName, file.ubl.en16931 ? 'yes' : 'no', file.ubl.missing.join('; ')].map((v) => csvField(v === '' ? null : v)).join(','));
  }

  /** The report's text; null when no UBL file was written. */
  csv(): string | null {
    if (this.lines.length === 0) return null;
    return `\uFEFF${['item', 'file', 'en16931', 'missing_business_terms'].join(',')}\r\n${this.lines.map((r) => `${r}\r\n`).join('')}`;
  }
}

/**
 * Writes every succeeded item of the batch into `dir` (created when missing) as its own file(s):
 * `files` every file it has, `srt` / `vtt` the subtitle file of each transcript. Returns what was
 * written; items without a file are counted, succeeded ones that should have had one are listed
 * with the reason. A failing write stops the export, naming the file.
 */
export async function exportFiles(source: ResultSource, batch: FilesBatch, dir: string, format: FilesFormat = 'files'): Promise<FilesExport> {
  itemFileKindOrRefuse(batch, format);
  ensureDir(dir);
  const counts = await source.counts();
  const out: FilesExport = { dir, written: 0, noFile: counts.total - counts.succeeded, problems: [], problemCount: 0 };
  const problem = (p: ItemProblem): void => {
    out.problemCount++;
    if (out.problems.length < MAX_LISTED_PROBLEMS) out.problems.push(p);
  };
  const names = new ExportNames();
  // Exclusive create of every file of an item: a name already in the folder is never opened for
  // writing, only skipped, and the item moves on to the next number with all its files (the empty
  // ones it had just made are removed: they are its own).
  const create = async (all: string[]): Promise<FileHandle[] | null> => {
    const made: FileHandle[] = [];
    const undo = async (): Promise<void> => {
      for (const [i, fh] of made.entries()) {
        await fh.close().catch(() => undefined);
        await unlink(join(dir, all[i] ?? '')).catch(() => undefined);
      }
    };
    for (const name of all) {
      // An item from a subfolder of what was dropped goes into that subfolder here.
      if (name.includes('/')) await makeFolder(dirname(join(dir, name)), out.written, undo);
      try {
        made.push(await open(join(dir, name), 'wx'));
      } catch (e) {
        await undo();
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
        throw writeError(e, join(dir, name), out.written);
      }
    }
    return made;
  };
  const report = new En16931Report();
  for await (const entry of itemFiles(source, batch, format)) {
    if (!entry.ok) {
      problem(entry);
      // Its name stays its own: the next item of the same name must not take it.
      if (entry.name) names.claimAllAny(entry.name.base, entry.name.exts);
      continue;
    }
    const f = entry.file;
    const { names: claimed, taken: handles } = await names.claimAll(
      f.base,
      f.parts.map((p) => p.ext),
      create,
    );
    const paths = claimed.map((name) => join(dir, name));
    const read: { failed: NodeJS.ErrnoException | null; path: string } = { failed: null, path: '' };
    let current = '';
    try {
      for (const [i, part] of f.parts.entries()) {
        const fh = handles[i];
        current = paths[i] ?? '';
        if (!fh) throw new Error(`no file opened for ${current}`);
        if (part.content.kind === 'text') {
          await fh.writeFile(part.content.text, 'utf8');
          await fh.close();
        } else {
          const src = part.content.open();
          const from = part.content.where;
          src.once('error', (e: NodeJS.ErrnoException) => {
            read.failed = e;
            read.path = from;
          });
          // The write stream closes the handle when it finishes or fails.
          await pipeline(src, fh.createWriteStream());
        }
      }
    } catch (e) {
      // Never leave half an item behind: none of its files stays.
      for (const fh of handles) await fh.close().catch(() => undefined);
      for (const path of paths) await unlink(path).catch(() => undefined);
      if (read.failed === null) throw writeError(e, current, out.written);
      const code = read.failed.code ?? 'error';
      problem({
        item: f.item,
        message: `its saved answer ${read.path} cannot be read (${code === 'ENOENT' ? 'moved or deleted' : code}); put it back, or retry the item in a new batch`,
        problem: { code: 'saved_unreadable', path: read.path, error: code },
      });
      continue;
    }
    out.written += f.parts.length;
    report.add(f, claimed);
  }
  const text = report.csv();
  if (text !== null) {
    const {
      names: [name = ''],
      taken,
    } = await names.claimAll(En16931Report.BASE, ['csv'], create);
    const fh = taken[0];
    try {
      await fh?.writeFile(text, 'utf8');
      await fh?.close();
    } catch (e) {
      await fh?.close().catch(() => undefined);
      throw writeError(e, join(dir, name), out.written);
    }
    out.ubl = { declared: report.declared, notDeclared: report.rows - report.declared, report: join(dir, name) };
  } else out.ubl = null;
  return out;
}
