// forget VALUE: a person taken out of the data folder (or a team's store), with a report of what
// was removed where that never repeats the value.
import type { CountryCode } from 'libphonenumber-js';
import { parse } from '../parse';
import { forgetSpec } from '../specs/forget';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { openCliDesk } from '../desk';
import { forgetTarget, describeTarget } from '../../engine/forget/forget-target';
import type { ForgetOutcome } from '../../desk/desk';

export async function cmdForget(args: string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parse(args, forgetSpec.options);
  if (positionals.length === 0)
    throw new UsageError('forget needs the value to forget: a phone number, an e-mail address or a name (quoted if it has spaces).');
  const raw = positionals.join(' ');
  const country = values.country?.trim().toUpperCase();
  if (country !== undefined && !/^[A-Z]{2}$/.test(country))
    throw new UsageError(`--country takes a two-letter country code such as DE or GB (got "${values.country}").`);
  const t = forgetTarget(raw, country as CountryCode | undefined);
  if (!t.ok) throw new UsageError(t.reason);
  const dryRun = values['dry-run'] === true;
  const desk = await openCliDesk(values, io, { read: dryRun });
  try {
    const r = await desk.forget(t.target, raw, { dryRun });
    if (values.json) io.stdout.write(`${JSON.stringify(asJson(r, dryRun), null, 2)}\n`);
    else writeReport(io, r, describeTarget(t.target), dryRun);
    return r.store.notPurged.length > 0 ? EXIT.someFailed : EXIT.ok;
  } finally {
    await desk.close();
  }
}

function asJson(r: ForgetOutcome, dryRun: boolean) {
  const s = r.store;
  return {
    where: r.where,
    dry_run: dryRun,
    replaced: s.replaced,
    rows: s.rows,
    jobs: s.jobs.length,
    embeddings_dropped: s.embeddings,
    search_entries_dropped: s.searchEntries,
    stored_files_deleted: s.storedFiles,
    jobs_cancelled: s.cancelled,
    opt_out_kept_as_hash: s.optOutHashed,
    message_pacing_forgotten: s.recipientSends,
    files: r.files,
    not_purged: s.notPurged,
  };
}

function writeReport(io: Io, r: ForgetOutcome, what: string, dryRun: boolean): void {
  const s = r.store;
  const verb = dryRun ? 'would be replaced' : 'replaced by [FORGOTTEN]';
  const places = Object.entries(s.replaced);
  if (places.length === 0 && !s.optOutHashed && (r.files === null || (r.files.rewritten.length === 0 && r.files.deleted.length === 0))) {
    io.stdout.write(`${capital(what)} is nowhere in ${r.where}: nothing to forget.\n`);
    return;
  }
  io.stdout.write(`${capital(what)} in ${r.where}${dryRun ? ' (dry run: nothing was changed)' : ''}:\n`);
  for (const [place, n] of places) io.stdout.write(`  ${place.padEnd(28)} ${n} place(s) ${verb}\n`);
  if (s.jobs.length > 0) io.stdout.write(`  ${s.jobs.length} job(s) held it\n`);
  if (!dryRun) {
    if (s.embeddings > 0) io.stdout.write(`  ${s.embeddings} embedding(s) deleted\n`);
    if (s.searchEntries > 0)
      io.stdout.write(`  ${s.searchEntries} search entr${s.searchEntries === 1 ? 'y' : 'ies'} deleted (indexed again from the scrubbed text)\n`);
    if (s.storedFiles > 0) io.stdout.write(`  ${s.storedFiles} file(s) kept in the store deleted (speech, images)\n`);
    if (s.cancelled > 0) io.stdout.write(`  ${s.cancelled} job(s) not sent yet cancelled\n`);
    if (s.recipientSends > 0) io.stdout.write(`  when they were last messaged: forgotten\n`);
  }
  if (s.optOutHashed) io.stdout.write(`  opt-out entry ${dryRun ? 'would be kept' : 'kept'} as a keyed hash: they are still never messaged\n`);
  for (const f of r.files?.rewritten ?? []) io.stdout.write(`  ${f.path}: ${f.count} place(s) ${verb}\n`);
  for (const f of r.files?.deleted ?? []) io.stdout.write(`  ${f.path}: ${dryRun ? 'would be deleted' : 'deleted'} (${f.why})\n`);
  for (const f of r.files?.unread ?? []) io.stderr.write(`! ${f.path}: ${f.why}; look at it yourself.\n`);
  for (const p of s.notPurged) io.stderr.write(`! Not done: ${p}.\n`);
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
