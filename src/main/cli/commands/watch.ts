// watch add | list | remove | resend: the hot folders kept in the data folder (sent by `run --watch`).
import { parse } from '../parse';
import { watchSpec } from '../specs/watch';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine, openEngineToRead } from '../context';
import { onTeamStore, openCliDesk } from '../desk';
import { formatEur } from '../../../shared/money';
import { BatchCapability, Tier, type BatchSummary } from '../../../shared/domain';
import { budgetOption, thenSteps } from '../option-values';
import { readSetting } from '../../../shared/capabilities/options';
import { parseExtensions, WATCHABLE_CAPABILITIES } from '../../engine/watch/intake-rules';
import type { WatchView } from '../../../shared/contract';
import { assertNever } from '../../../shared/domain';
import { phoneCountryWords } from '../../../shared/phone-country';
import { KeepDays, daysFromText, retentionWords, type RuleWords } from '../../../shared/retention-rules';

/** A --keep-*-days value checked by the retention rule, or a usage error with its sentence. */
function keepDays(flag: string, text: string | undefined): number | null {
  if (text === undefined) return null;
  const r = KeepDays.safeParse(daysFromText(text));
  if (!r.success) throw new UsageError(`--${flag}: ${r.error.issues[0]?.message ?? 'not valid'} (got "${text}").`);
  return r.data;
}

/**
 * The retention a folder without its own rule falls back to, part by part: the data folder's default,
 * or with a team's store the team's default (it outranks the default a batch carries from here).
 */
async function watchFallback(values: { store?: string; 'data-dir'?: string }, io: Io, here: RuleWords): Promise<string> {
  const team = onTeamStore(values, io) ? await openCliDesk(values, io, { read: true }) : null;
  try {
    const d = team ? await team.retention.defaults() : null;
    const words = retentionWords({
      keepFilesDays: d?.keepFilesDays ?? here.keepFilesDays,
      keepResultsDays: d?.keepResultsDays ?? here.keepResultsDays,
      ...(d
        ? {
            filesFrom: d.keepFilesDays !== null ? d.from : "this computer's default",
            resultsFrom: d.keepResultsDays !== null ? d.from : "this computer's default",
          }
        : {}),
    });
    if (words === null) return 'none: nothing is deleted';
    return team ? `the defaults in ${team.description}: ${words}` : `the default: ${words}`;
  } finally {
    await team?.close();
  }
}

/** A folder's problem files counted by what happened to each ("2 set aside, 1 changed after it was sent"). */
export function problemSummary(problems: WatchView['problems']): string {
  let aside = 0;
  let inPlace = 0;
  let changed = 0;
  let other = 0;
  for (const p of problems) {
    if (p.note?.code === 'set_aside') {
      if (p.note.target === null) inPlace++;
      else aside++;
    } else if (p.note?.code === 'changed_after_sent') changed++;
    else other++;
  }
  return [
    ...(aside > 0 ? [`${aside} set aside (in .batchdesk-set-aside)`] : []),
    ...(inPlace > 0 ? [`${inPlace} not processable, left in place`] : []),
    ...(changed > 0 ? [`${changed} changed after ${changed === 1 ? 'it was' : 'they were'} sent`] : []),
    ...(other > 0 ? [`${other} other`] : []),
  ].join(', ');
}

/**
 * One folder for `watch list`: every file whose latest state is a problem, one line each (under a
 * count by what happened), never a count that stands for lines not shown.
 * `pause`: today's batch's, when it is paused (a day's budget reached, a key refused): files are taken, nothing is sent.
 * `fallback`: the retention the folder's batches get without a rule of its own (the data folder's default).
 */
export function describeWatch(w: WatchView, carry: (text: string) => string, fallback: string, pause: BatchSummary['pause'] = null): string {
  const lines = [
    `${w.id}  ${w.dir}`,
    `    ${w.steps}, ${w.tier}${w.extensions ? `, only ${w.extensions.join(', ')}` : ''}${w.key ? `, key ${w.key}` : ''}${w.budgetPerDay !== null ? `, budget ${formatEur(w.budgetPerDay, 2)} a day` : ''}${w.redact ? `, redacts ${w.redact.join(',')}${w.redactStored ? ' (stored copy too)' : ''}` : ''}`,
    `    retention: ${retentionWords(w) ?? fallback}`,
    `    today: ${w.takenToday} file(s)${w.todayBatch ? ` in batch ${w.todayBatch}` : ''}${w.lastFile ? `; last ${w.lastFile.path}${lastItem(w.lastFile)} at ${w.lastFile.at.replace('T', ' ').slice(0, 19)} UTC` : ''}`,
  ];
  if (pause && w.todayBatch) lines.push(`    ! batch ${w.todayBatch} paused (${pause.kind}): ${carry(pause.reason)}`);
  if (w.problems.length > 0) lines.push(`    problems: ${problemSummary(w.problems)}`);
  for (const p of w.problems) lines.push(`    ! ${carry(p.message ?? p.path)}`);
  for (const s of w.skipped.slice(0, 3)) lines.push(`    - ${carry(s.message ?? s.path)}`);
  return lines.join('\n');
}

/** " (sent: batch B, item N)" for a taken file. */
function lastItem(f: NonNullable<WatchView['lastFile']>): string {
  return f.batch !== null && f.seq !== null ? ` (sent: batch ${f.batch}, item ${f.seq})` : '';
}

export async function cmdWatch(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, watchSpec.options);
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove' && sub !== 'resend')
    throw new UsageError('watch takes add DIR --capability ocr|transcribe, list, remove ID|DIR or resend FILE.');
  if (sub === 'resend' && positionals.length !== 1) throw new UsageError('watch resend takes one file of a watched folder.');
  if (sub !== 'list' && values.store !== undefined)
    throw new UsageError(
      `watch ${sub} works on this computer's folders and takes no --store; \`run --watch --store URL\` sends their batches to a team's store.`,
    );
  if ((sub === 'add' || sub === 'remove') && positionals.length !== 1)
    throw new UsageError(`watch ${sub} takes one folder${sub === 'remove' ? ' (or a watch id)' : ''}.`);
  const engine = (sub === 'list' ? openEngineToRead : openEngine)(globalOptions(values, io.env), io);
  try {
    if (sub === 'list') {
      // Each folder with its own retention rule (engine/retention keeps it beside the folder).
      const all = engine.hotFolders.list().map((w) => {
        const rule = engine.retentionRules.forWatch(w.id);
        return rule ? { ...w, ...rule } : w;
      });
      const fallback = await watchFallback(values, io, engine.retentionRules.defaults());
      if (values.json) io.stdout.write(`${JSON.stringify({ watches: all }, null, 2)}\n`);
      else if (all.length === 0) io.stdout.write(io.carry('No folder is watched. Add one: `batchdesk watch add DIR --capability ocr`\n'));
      else
        io.stdout.write(
          `${(await Promise.all(all.map(async (w) => describeWatch(w, io.carry, fallback, w.todayBatch ? (await engine.control.summary(w.todayBatch)).pause : null)))).join('\n')}\n`,
        );
      return EXIT.ok;
    }
    const target = positionals[0] ?? '';
    if (sub === 'resend') {
      const e = await engine.hotFolders.resend(target);
      switch (e.kind) {
        case 'taken':
          io.stdout.write(
            io.carry(
              `Sending this version of ${e.path} too: batch ${e.batchId}, item ${e.seq}. It is sent while \`batchdesk run --watch\` (or the app) runs.\n`,
            ),
          );
          return EXIT.ok;
        case 'skipped':
        case 'set_aside':
        case 'refused':
          io.stderr.write(`${io.carry(e.message)}\n`);
          return EXIT.usage;
        case 'gone':
          io.stderr.write(io.carry(`${e.path} is not there (moved or deleted): nothing was sent.\n`));
          return EXIT.usage;
        case 'passed':
          io.stderr.write(io.carry(`${target} is not of a type this folder takes (its --ext list): nothing was sent.\n`));
          return EXIT.usage;
        default:
          return assertNever(e, 'intake');
      }
    }
    if (sub === 'remove') {
      const w = engine.hotFolders.remove(target);
      engine.retentionRules.removeWatch(w.id);
      io.stdout.write(`No longer watching ${w.dir}. Its batches stay (and are still sent); files left in it are not taken.\n`);
      return EXIT.ok;
    }
    const cap = BatchCapability.safeParse(values.capability);
    if (!cap.success || !WATCHABLE_CAPABILITIES.includes(cap.data)) {
      const got = values.capability === undefined ? 'none given' : `got "${values.capability}"`;
      throw new UsageError(
        `watch add needs --capability ${WATCHABLE_CAPABILITIES.join('|')} (${got})${cap.success ? `: ${cap.data} does not take files, so a folder cannot feed it` : ''}.`,
      );
    }
    const tier = Tier.safeParse(values.tier ?? 'standard');
    if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
    let extensions: string[] | null;
    try {
      extensions = parseExtensions(values.ext);
    } catch (e) {
      throw new UsageError(`--ext: ${e instanceof Error ? e.message : String(e)}.`);
    }
    const then = thenSteps(cap.data, values.then);
    const budgetPerDay = budgetOption('budget-per-day', values['budget-per-day']);
    const redact = values.redact === undefined ? undefined : readSetting('redact', values.redact);
    if (redact !== undefined && !redact.ok) throw new UsageError(`--redact: ${redact.message} (got "${values.redact}").`);
    if (values['redact-stored'] === true && redact === undefined)
      throw new UsageError('--redact-stored needs --redact KINDS: the kinds of personal data to take out (e.g. all).');
    const keepFilesDays = keepDays('keep-files-days', values['keep-files-days']);
    const keepResultsDays = keepDays('keep-results-days', values['keep-results-days']);
    const w = engine.hotFolders.add({
      dir: target,
      capability: cap.data,
      tier: tier.data,
      ...(extensions ? { extensions } : {}),
      ...(then.length > 0 ? { then } : {}),
      ...(values.key !== undefined ? { key: values.key } : {}),
      budgetPerDay,
      ...(redact?.ok ? { redact: redact.value } : {}),
      ...(values['redact-stored'] === true ? { redactStored: true } : {}),
    });
    engine.retentionRules.setForWatch(w.id, { keepFilesDays, keepResultsDays, deleteOriginals: values['delete-originals'] === true });
    io.stdout.write(`Watching ${w.dir} (${w.id}): ${w.steps}, ${w.tier}.\n`);
    if (values['delete-originals'] === true)
      io.stdout.write(
        `Files in ${w.dir} are deleted once every step of their item succeeded${keepFilesDays === null ? '' : ` and ${keepFilesDays} days passed`} (each deletion is in \`batchdesk retention log\`).\n`,
      );
    if (redact?.ok === true && redact.value.includes('phones')) io.stdout.write(io.carry(`${phoneCountryWords(engine.phoneCountry())}\n`));
    io.stdout.write(io.carry('Files are taken while `batchdesk run --watch` (or the app) runs; files already there are taken at its start.\n'));
    return EXIT.ok;
  } finally {
    engine.close();
  }
}
