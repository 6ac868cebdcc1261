// One ready file of a watched folder -> one outcome. A file already judged (same path, size and
// mtime) is passed over without reading; otherwise it is read once (the importers' measure: hash,
// type, structure, units). A bad file is set aside with the importer's reason; a copy of content
// this watch already took (a move, a rename, a second copy) is skipped and recorded as such; a
// file that changed after it was taken (a recording still growing, a scan rewritten) is reported
// and not sent again, unless the user asks (`watch resend`); a good one becomes the next item of
// the watch's batch of the day, in one IMMEDIATE transaction with its row in the hash store.
// Nothing that happens to one file stops the others.
import { mkdir, rename, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { droppedFolderOf } from '../importers/dropped-folder';
import type { Clock } from '../clock';
import type { RateBook } from '../costs/rate-book';
import { costOf } from '../costs/rate-book';
import { measureFile } from '../importers/measure-file';
import type { FileCapability } from '../importers/types';
import { capabilityFor } from '../capabilities/registry';
import type { BatchContext, CapabilityModule } from '../capabilities/capability';
import { describe } from '../../../shared/capabilities/catalog';
import { fingerprintOf } from '../queue/fingerprint';
import { newIdempotencyKey } from '../queue/idempotency-key';
import type { EarlierDelivery } from '../batch-planner';
import type { NewJob } from '../queue/job-store';
import type { RollingBatches } from './rolling-batch';
import { extensionsOf, type WatchRow, type WatchStore } from './watch-store';
import { extensionAllowed, SET_ASIDE_DIR } from './intake-rules';
import { shellWord } from '../shell-word';
import { escapeControls } from '../../../shared/control-characters';
import type { ProblemCode } from '../../../shared/problem-codes';
import type { WatchNote } from '../../../shared/watch-notes';

export type Intake =
  | { kind: 'taken'; path: string; batchId: string; seq: number; created: string[] }
  /** Judged before (same path, size, mtime), or not on the watch's extension list: nothing to say. */
  | { kind: 'passed' }
  /** Gone before it could be read (moved or deleted meanwhile). */
  | { kind: 'gone'; path: string }
  | { kind: 'skipped'; path: string; message: string; note: WatchNote }
  | { kind: 'set_aside'; path: string; message: string; note: WatchNote }
  | { kind: 'refused'; path: string; message: string; note: WatchNote };

export interface TakeFileDeps {
  store: WatchStore;
  rolling: RollingBatches;
  rates: RateBook;
  clock: Clock;
  /** An earlier, not failed, not cancelled job delivering the same (another batch's). */
  delivered: (delivery: string) => EarlierDelivery | null;
  signal?: AbortSignal;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

/** `resend`: the user asked for this version to be sent although an earlier one of the path was (`watch resend`). */
export async function takeFile(d: TakeFileDeps, w: WatchRow, path: string, opts: { resend?: boolean } = {}): Promise<Intake> {
  if (!extensionAllowed(path, extensionsOf(w))) return { kind: 'passed' };
  let st;
  try {
    st = await stat(path);
  } catch {
    return { kind: 'gone', path };
  }
  if (!st.isFile()) return { kind: 'passed' };
  if (!opts.resend && d.store.seen(w.id, path, st.size, st.mtimeMs)) return { kind: 'passed' };
  const capability = w.capability as FileCapability;
  const measured = await measureFile(path, capability, d.signal);
  if (!measured.ok) {
    if (!existsSync(path)) return { kind: 'gone', path };
    // Taken before and unreadable now: a writer may still hold it, so it is reported, never moved.
    if (opts.resend) return notResent(path, measured.problem.message, measured.problem.code);
    const earlier = d.store.takenAt(w.id, path);
    if (earlier) return changedAfterTaken(d, w, path, { size: st.size, mtimeMs: st.mtimeMs }, earlier);
    return setAside(d, w, path, { size: st.size, mtimeMs: st.mtimeMs }, measured.problem.message, measured.problem.code);
  }
  const item = measured.item;
  const file = { size: item.size, mtimeMs: item.mtimeMs };
  const before = d.store.taken(w.id, item.sha256);
  if (before) return skip(d, w, path, file, item.sha256, ...sameContent(path, before));
  const earlierVersion = opts.resend ? undefined : d.store.takenAt(w.id, path);
  if (earlierVersion) return changedAfterTaken(d, w, path, file, earlierVersion);
  const mod = capabilityFor(w.capability) as CapabilityModule<unknown>;
  const ctx: BatchContext = { tier: w.tier, channel: null, options: {} };
  // Its folder under the watched one, kept for `export --format files` as for a dropped folder.
  const folder = droppedFolderOf([w.dir])(item.path);
  const planned = mod.plan({ kind: 'file', file: folder === null ? item : { ...item, folder } }, ctx);
  if (!planned.ok) {
    // The plan's refusal as the planner codes it, so the window words it (its English stays for the command line).
    const code: ProblemCode = { code: 'item_refused', unit: 'file', why: planned.why, value: planned.value ?? '', said: planned.message };
    if (opts.resend) return notResent(path, `${path}: ${planned.message}.`, code);
    return setAside(d, w, path, file, `${path}: ${planned.message}.`, code);
  }
  const delivery = mod.delivery(planned.payload, ctx);
  const earlier = d.delivered(delivery);
  if (earlier) {
    const state = earlier.state === 'succeeded' ? 'already done' : 'not done yet';
    return skip(
      d,
      w,
      path,
      file,
      item.sha256,
      `${path} has the same content as ${earlier.source} in batch ${earlier.batch_id} ("${earlier.name}": ${state}); skipped, so it is not done and paid for twice.`,
      { code: 'same_as_batch', source: earlier.source, batch: earlier.batch_id, name: earlier.name, done: earlier.state === 'succeeded' },
    );
  }
  const job: NewJob = {
    seq: 0,
    // Fixed now and committed with the job, before any attempt.
    idempotencyKey: newIdempotencyKey(),
    fingerprint: fingerprintOf(delivery),
    // Shown and exported as the item's name: made inert like the planner's (batch-planner.ts).
    source: escapeControls(path),
    payloadJson: JSON.stringify(planned.payload),
    requestBody: mod.requestBody(planned.payload, ctx),
    estimatedUnits: planned.units,
    estimatedCost: costOf(planned.units, d.rates.rate(describe(w.capability).rateItem(null), w.tier)),
  };
  return d.store.immediate((): Intake => {
    // Another process (a window beside `run --watch`) may have taken it since the check above.
    const now = d.store.taken(w.id, item.sha256);
    if (now) return skip(d, w, path, file, item.sha256, ...sameContent(path, now));
    const { id, created } = d.rolling.dayBatch(w, d.clock.now());
    const seq = d.rolling.append(id, job);
    d.store.record({
      watchId: w.id,
      sha256: item.sha256,
      path,
      size: file.size,
      mtimeMs: file.mtimeMs,
      outcome: 'taken',
      batchId: id,
      seq,
      message: null,
      note: null,
    });
    return { kind: 'taken', path, batchId: id, seq, created };
  });
}

/**
 * Recorded as refused at this size and mtime, so this version is not judged again; a later change
 * is reported again. Never sent by itself: it would bill the same recording or scan twice.
 */
function changedAfterTaken(
  d: TakeFileDeps,
  w: WatchRow,
  path: string,
  f: { size: number; mtimeMs: number },
  earlier: { batch_id: string | null; at: number },
): Intake {
  // The file's state, not this version's: the row before (if any) is replaced in the faces' lists by this one.
  const versions = d.store.changedSinceTaken(w.id, path) + 1;
  const notSent = versions === 1 ? 'the new version was not sent' : `its ${versions} new versions since were not sent`;
  const message = `${path} changed after it was sent (taken ${when(earlier.at)} into batch ${earlier.batch_id ?? '?'}): ${notSent}, so it is not paid for twice. To send it as well: \`batchdesk watch resend ${shellWord(path)}\`.`;
  const note: WatchNote = { code: 'changed_after_sent', at: new Date(earlier.at).toISOString(), batch: earlier.batch_id, versions };
  d.store.record({ watchId: w.id, sha256: null, path, size: f.size, mtimeMs: f.mtimeMs, outcome: 'refused', batchId: null, seq: null, message, note });
  return { kind: 'refused', path, message, note };
}

/**
 * `watch resend` of a version that cannot be processed: said to the user, recorded nowhere, and the
 * file is never moved (it was sent before; a writer may still hold it, and the docs promise it stays).
 */
function notResent(path: string, cause: string, code: ProblemCode | null): Intake {
  const message = `${cause} This version was not sent and ${path} stays where it is: once it is complete and readable, send it with \`batchdesk watch resend ${shellWord(path)}\` again.`;
  return { kind: 'refused', path, message, note: { code: 'not_resent', cause: code, words: cause } };
}

function sameContent(path: string, before: { path: string; batch_id: string | null; at: number }): [string, WatchNote] {
  const as = before.path === path ? '' : ` as ${before.path}`;
  return [
    `${path} has the same content as a file this folder already took${as} (${when(before.at)}, batch ${before.batch_id ?? '?'}); skipped, so it is not processed twice.`,
    { code: 'same_as_taken', as: before.path === path ? null : before.path, at: new Date(before.at).toISOString(), batch: before.batch_id },
  ];
}

function skip(d: TakeFileDeps, w: WatchRow, path: string, f: { size: number; mtimeMs: number }, sha256: string, message: string, note: WatchNote): Intake {
  d.store.record({ watchId: w.id, sha256, path, size: f.size, mtimeMs: f.mtimeMs, outcome: 'skipped', batchId: null, seq: null, message, note });
  return { kind: 'skipped', path, message, note };
}

/** A free name for `target` ("scan.pdf", then "scan (2).pdf", ...). */
function freeName(target: string): string {
  if (!existsSync(target)) return target;
  const ext = extname(target);
  const base = target.slice(0, target.length - ext.length);
  for (let n = 2; ; n++) {
    const t = `${base} (${n})${ext}`;
    if (!existsSync(t)) return t;
  }
}

/**
 * Moves a bad file into the folder's `.batchdesk-set-aside/` (same relative path), so the folder
 * shows what was refused and the file is out of the way. Where it cannot be moved (a read-only
 * share), it stays and its path, size and mtime are recorded: it is not tried again until it changes.
 */
async function setAside(
  d: TakeFileDeps,
  w: WatchRow,
  path: string,
  f: { size: number; mtimeMs: number },
  cause: string,
  code: ProblemCode | null,
): Promise<Intake> {
  const target = freeName(join(w.dir, SET_ASIDE_DIR, relative(w.dir, path)));
  try {
    await mkdir(dirname(target), { recursive: true });
    await rename(path, target);
  } catch (e) {
    if (!existsSync(path)) return { kind: 'gone', path };
    const why = e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e);
    const message = `${cause} It could not be moved to ${SET_ASIDE_DIR} (${why}), so it stays where it is and is not tried again until it changes.`;
    const note: WatchNote = { code: 'set_aside', cause: code, words: cause, target: null, error: why };
    d.store.record({ watchId: w.id, sha256: null, path, size: f.size, mtimeMs: f.mtimeMs, outcome: 'refused', batchId: null, seq: null, message, note });
    return { kind: 'refused', path, message, note };
  }
  const message = `${cause} Set aside as ${target}; put a corrected copy of ${basename(path)} into the folder to try again.`;
  const note: WatchNote = { code: 'set_aside', cause: code, words: cause, target: relative(w.dir, target), error: null };
  d.store.record({ watchId: w.id, sha256: null, path, size: f.size, mtimeMs: f.mtimeMs, outcome: 'set_aside', batchId: null, seq: null, message, note });
  return { kind: 'set_aside', path, message, note };
}
