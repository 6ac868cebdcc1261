import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { batchCreateSpec, type SettingFlagName } from '../specs/batch-create';
import { countOf, describeBatch, describeProblems, localTime } from '../format';
import { budgetArgument, formatEur } from '../../../shared/money';
import { BATCH_CAPABILITIES, BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import {
  BATCH_SETTINGS,
  OPTION_NAMES,
  SETTING_NAMES,
  readOption,
  readSetting,
  type BatchSetting,
  type OptionName,
  type OptionValue,
  type SettingName,
} from '../../../shared/capabilities/options';
import { misplacedOptions, type RequestOptions } from '../../../shared/capabilities/request-options';
import { takerList } from '../../../shared/capabilities/steps';
import { thenSteps } from '../option-values';
import type { StepEstimate } from '../../engine/pipeline/projection';
import { parseAt, pastProblem } from '../../engine/queue/schedule';
import { UserError } from '../../engine/failures';
import { parseQuietHours } from '../../engine/messaging/quiet-hours';
import { formatGap } from '../../../shared/durations';
import { teamCreateProblems } from '../../engine/team/team-create';
import { openCliDesk } from '../desk';
import type { Desk } from '../../desk/desk';
import type { BatchSummary } from '../../../shared/domain';
import type { Io } from '../io';
import { phoneCountryWords } from '../../../shared/phone-country';
import { confirmSpend, leftLines } from '../confirm-spend';

/** What to do about an item a team create left out, on the command line. */
export const CLI_TODO = {
  optOut: ' If they asked to hear from you again: `batchdesk optout remove RECIPIENT --store URL`',
  resend: 'add --allow-resend to send it again',
};

/** A step's estimate as `--json` prints it (money as integer 1/10,000 EUR, as everywhere). */
function estimateJson(e: StepEstimate) {
  return { capability: e.capability, label: e.label, tier: e.tier, items: e.items, units: Math.round(e.units), unit: e.unitName, cost: e.cost, basis: e.basis };
}

/** What happens to a scheduled batch, and how to change it; who starts it is the desk's word. */
function scheduledWords(id: string, iso: string, desk: Pick<Desk, 'words' | 'storeFlag'>): string {
  return `Scheduled for ${localTime(Date.parse(iso))} (this computer's time): nothing is sent before; ${desk.words.scheduledStarter(id)} Start it now with \`batchdesk schedule ${id} --now${desk.storeFlag}\` (--at TIME moves it, --clear removes it).`;
}

function messagingWords(m: { quiet_hours: string | null; zone: string | null; recipient_gap_ms: number }): string {
  const parts: string[] = [];
  if (m.quiet_hours !== null)
    parts.push(
      `no message during ${m.quiet_hours} of the recipient's local time (timezone column, else the number's country; otherwise ${m.zone ?? "this computer's zone"})`,
    );
  if (m.recipient_gap_ms > 0) parts.push(`at least ${formatGap(m.recipient_gap_ms)} between two messages to the same recipient, across every batch`);
  return `Timing: ${parts.join('; ')}. Held items wait and show when they will go.`;
}

/** A capability option's flag value checked by its record, or a usage error naming the flag. */
function option<N extends OptionName>(name: N, text: string | undefined): OptionValue<N> | undefined {
  if (text === undefined) return undefined;
  const r = readOption(name, text);
  if (!r.ok) throw new UsageError(`--${name}: ${r.message} (got "${text}").`);
  return r.value;
}

/** A batch setting's flag value checked by the contract's rule, or a usage error with the rule's sentence. */
function setting<N extends SettingName>(name: N, text: string | undefined) {
  if (text === undefined) return undefined;
  const r = readSetting(name, text);
  if (!r.ok) throw new UsageError(`--${BATCH_SETTINGS[name].flag.name}: ${r.message} (got "${text}").`);
  return r.value;
}

/** The object without its undefined entries (the request schema is strict about absent vs undefined). */
function definedOnly<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

export const batchCreateCommand = bindCommand(batchCreateSpec, async ({ values, positionals }, io) => {
  const [capText, ...paths] = positionals;
  const cap = BatchCapability.safeParse(capText);
  if (!cap.success) throw new UsageError(`batch create needs a capability: ${BATCH_CAPABILITIES.join(', ')} (got "${capText ?? ''}").`);
  const desc = describe(cap.data);
  const from = values.from;
  if (from !== undefined && paths.length > 0) throw new UsageError(`--from takes its items from batch ${from}: give files or --from, not both.`);
  if (from !== undefined && !desc.takesFrom) throw new UsageError(`${cap.data} cannot take another batch's results (--from): ${takerList()} can.`);
  if (from === undefined && paths.length === 0)
    throw new UsageError(`batch create ${cap.data} needs ${desc.inputHelp}${desc.takesFrom ? ', or --from BATCH' : ''}.`);
  const then = thenSteps(cap.data, values.then);
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  const options: RequestOptions = { capability: cap.data };
  for (const name of OPTION_NAMES) Object.assign(options, { [name]: option(name, values[name]) });
  const misplaced = misplacedOptions(options);
  if (misplaced[0]) throw new UsageError(misplaced[0].message);
  const budget = setting('budget', values.budget) ?? null;

  const sample = setting('sample', values.sample);
  if (sample !== undefined) {
    if (from !== undefined)
      throw new UsageError(
        "--sample takes items from the batch's own input; a follow-up (--from) takes its items as they come. Give --sample when you create the first batch.",
      );
  }

  let at: number | undefined;
  if (values.at !== undefined) {
    const r = parseAt(values.at);
    if (!r.ok) throw new UsageError(`--at: ${r.reason}`);
    at = r.at;
  }
  for (const name of SETTING_NAMES) {
    const { flag, only } = BATCH_SETTINGS[name] as BatchSetting;
    if (only && values[flag.name as SettingFlagName] !== undefined && !only.capabilities.includes(cap.data))
      throw new UsageError(`--${flag.name}: ${only.message}, not ${cap.data}.`);
  }
  const quietText = setting('quietHours', values['quiet-hours']);
  // Written the way the engine reads it back ("9:00-8:00" -> "09:00-08:00").
  const quiet = quietText === undefined ? undefined : parseQuietHours(quietText);
  const quietHours = quiet?.ok ? quiet.value.text : quietText;
  const recipientGapMs = setting('recipientGapMs', values['recipient-gap']);
  const nationalNumbers = setting('nationalNumbers', values['national-numbers']);
  const redact = setting('redact', values.redact);
  const redactStored = values['redact-stored'] === true ? true : undefined;
  if (redactStored && redact === undefined) throw new UsageError('--redact-stored needs --redact KINDS: the kinds of personal data to take out (e.g. all).');
  const keepFilesDays = setting('keepFilesDays', values['keep-files-days']);
  const keepResultsDays = setting('keepResultsDays', values['keep-results-days']);

  // --at commits the batch to be sent at that time with no one asked again: asked after the
  // estimate (confirm-spend.ts), so it is created unscheduled and given its time on a yes. Where
  // no one can answer, nothing is created without --yes.
  const askAt = at !== undefined && values.yes !== true;
  // A time already past is refused as creating would refuse it, before the question.
  const late = askAt && at !== undefined ? pastProblem(at, Date.now()) : null;
  if (late !== null) throw new UserError(late);
  if (askAt && !io.stdin.isTTY)
    throw new UsageError(
      'Nothing was created: --at sends the batch at that time with no one asked again, so it needs a yes to its estimate, and no one can answer here (standard input is not a terminal). Add --yes to create and schedule it, or leave out --at and start it with `batchdesk run` after reading the estimate.',
    );

  // On a team's store the batch is planned here (this computer's keys and opt-out list), then moved whole there.
  const desk = await openCliDesk(values, io);
  try {
    const input = {
      ...(at !== undefined && !askAt ? { at } : {}),
      ...(quietHours !== undefined ? { quietHours } : {}),
      ...(recipientGapMs !== undefined ? { recipientGapMs } : {}),
      ...(nationalNumbers !== undefined ? { nationalNumbers } : {}),
      ...(redact !== undefined ? { redact } : {}),
      ...(redactStored !== undefined ? { redactStored } : {}),
      ...(keepFilesDays !== undefined ? { keepFilesDays } : {}),
      ...(keepResultsDays !== undefined ? { keepResultsDays } : {}),
      ...(sample !== undefined ? { sample } : {}),
      paths,
      ...(then.length > 0 ? { then } : {}),
      tier: tier.data,
      ...definedOnly(options),
      ...(values.name !== undefined ? { name: values.name } : {}),
      budget,
      allowResend: values['allow-resend'] === true,
      ...(values.key !== undefined ? { key: values.key } : {}),
      ...(from !== undefined ? { from } : {}),
    };
    const created = await desk.create(input, (line) => io.stderr.write(io.carry(`${line}\n`)));
    const { steps, estimates, alreadyQueued } = created;
    let { batch } = created;
    const problems = teamCreateProblems(created, CLI_TODO);
    // --json: the question on stderr before the JSON, which then shows the batch as it ends up.
    if (askAt && at !== undefined && batch && values.json) batch = await scheduleIfYes(desk, batch, at, io, true);
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ batch, steps, estimates: estimates.map(estimateJson), problems, already_queued: alreadyQueued }, null, 2)}\n`);
    } else {
      // A refused follow-up is one reason for the whole batch, not a skipped item.
      if (problems.length > 0)
        io.stderr.write(`${!batch && from !== undefined ? 'Not created:' : 'Left out:'}\n${describeProblems(problems, io.carry, '--json lists every one')}\n`);
      if (batch && steps.length === 0 && from === undefined) {
        io.stdout.write(`Created batch ${batch.id}${desk.words.inStore}\n${describeBatch(batch, { storeFlag: desk.storeFlag, carry: io.carry })}\n`);
        // E-invoices are read here at no cost: said, so an estimate of 0 pages is not a puzzle.
        const einvoices = describe(batch.capability).invoice ? (await desk.einvoiceCount(batch.id)).einvoices : 0;
        const free = einvoices > 0 ? ` (${countOf(einvoices, 'e-invoices')} read on this computer: no OCR, no cost)` : '';
        io.stdout.write(
          io.carry(
            `Estimated cost: ${formatEur(batch.cost.estimated, 4)} for ~${countOf(batch.units.estimated, batch.units.name)}${free}. ${batch.scheduled_for !== null ? scheduledWords(batch.id, batch.scheduled_for, desk) : `Nothing is sent until you start it: \`batchdesk run ${batch.id}${desk.storeFlag}\`${desk.words.startsOn}`}\n`,
          ),
        );
        if (batch.messaging) io.stdout.write(`${messagingWords(batch.messaging)}\n`);
        if (sample !== undefined && sample < batch.total) {
          io.stdout.write(
            io.carry(
              `Sample first: ${sample} item(s) chosen across the input are sent, then the batch pauses with their measured cost per item and the projected total; \`batchdesk resume ${batch.id}${desk.storeFlag}\` sends the rest.\n`,
            ),
          );
        }
      } else if (batch) {
        const ids = [batch, ...steps];
        const total = estimates.reduce((n, e) => n + e.cost, 0);
        io.stdout.write(
          `Created ${from !== undefined ? `a follow-up of ${batch.pipeline?.parent ?? from}` : `a pipeline of ${ids.length} steps`}${desk.words.inStore}: ${ids.map((b) => b.id).join(' → ')}\n`,
        );
        estimates.forEach((e, i) => {
          const b = ids[i];
          io.stdout.write(
            `  ${b ? `step ${b.pipeline?.step ?? i + 1} ${b.id}` : `step ${i + 1}`} ${e.label}, tier ${e.tier}: ${i === 0 && from === undefined ? '' : 'up to '}${e.items} item(s), ~${Math.round(e.units).toLocaleString('en')} ${e.unitName}, ${formatEur(e.cost, 4)} (${e.basis})\n`,
          );
        });
        const budget = batch.cost.budget;
        io.stdout.write(
          io.carry(
            `Estimated cost: ${formatEur(total, 4)} for ${from !== undefined && steps.length === 0 ? 'the follow-up' : 'every step together'}${budget !== null ? `; budget ${formatEur(budget, 4)} for ${from === undefined ? 'all steps together' : 'this batch and any step after it, together'}` : ''}. ${batch.scheduled_for !== null ? scheduledWords(batch.id, batch.scheduled_for, desk) : `Nothing is sent until you start it: \`batchdesk run ${batch.id}${desk.storeFlag}\`${desk.words.startsOn}`}\n`,
          ),
        );
      }
      // Said once, so a server whose locale names no country does not silently miss national numbers.
      if (batch && redact?.includes('phones') === true) io.stdout.write(io.carry(`${phoneCountryWords(desk.engine().phoneCountry())}\n`));
      if (askAt && at !== undefined && batch) await scheduleIfYes(desk, batch, at, io, false);
      if (batch && batch.cost.budget !== null) {
        const total = estimates.reduce((n, e) => n + e.cost, 0);
        if (total > batch.cost.budget) {
          io.stderr.write(
            io.carry(
              `Note: the budget (${formatEur(batch.cost.budget, 4)}) is below the estimate (${formatEur(total, 4)}): sending pauses before the item that would cross it; raise it with \`batchdesk resume ${batch.id} --budget ${budgetArgument(total)}${desk.storeFlag}\` (the estimate).\n`,
            ),
          );
        }
      }
    }
    if (!batch) {
      io.stderr.write(`${nothingCreated(alreadyQueued, problems.length > alreadyQueued, values.json === true)}\n`);
      return EXIT.someFailed;
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});

/** `batch create --at` without --yes: the question after the estimate; on a yes the time is set (and said, unless `json`). */
async function scheduleIfYes(desk: Desk, batch: BatchSummary, at: number, io: Io, json: boolean): Promise<BatchSummary> {
  const left = leftLines(await desk.control.leftToSend(batch.id));
  const yes = await confirmSpend(io, {
    lines: [...left.lines, `Scheduled for ${localTime(at)}, it is sent then by a Batchdesk that is running, with no one asked again.`],
    question: 'Schedule it?',
    command: `batchdesk schedule ${batch.id} --at "${new Date(at).toISOString()}"${desk.storeFlag}`,
    declined: `Not scheduled: batch ${batch.id} waits for its start (\`batchdesk run ${batch.id}${desk.storeFlag}\`, or \`batchdesk schedule ${batch.id} --at TIME${desk.storeFlag}\`).`,
    yes: left.items === 0,
    toStderr: json,
  });
  if (!yes) return batch;
  const scheduled = await desk.control.schedule(batch.id, at);
  if (!json && scheduled.scheduled_for !== null) io.stdout.write(io.carry(`${scheduledWords(scheduled.id, scheduled.scheduled_for, desk)}\n`));
  return scheduled;
}

/**
 * Why no batch was made: the usable items are all in earlier batches (--allow-resend includes
 * them), or there were none; whether other items were refused. The reasons are above, or in the
 * JSON. (Problems are not items: a row can have two, and a long list ends in a summary line.)
 */
function nothingCreated(alreadyQueued: number, othersRefused: boolean, json: boolean): string {
  const where = json ? 'listed in the JSON output' : 'named above';
  if (alreadyQueued === 0) return `Nothing to send: no valid item was found${othersRefused ? ` (the problems are ${where})` : ''}, so no batch was created.`;
  const one = alreadyQueued === 1;
  const usable = othersRefused
    ? one
      ? 'the one usable item is'
      : `the ${alreadyQueued} usable items are`
    : one
      ? 'the item is'
      : `all ${alreadyQueued} items are`;
  const others = othersRefused ? '; the others could not be used' : '';
  return `Nothing new: ${usable} already in ${one ? 'an earlier batch' : 'earlier batches'}${others} (${where}), so no batch was created. Add --allow-resend to include ${one ? 'it' : 'them'} anyway.`;
}
