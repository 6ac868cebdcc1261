// pause | resume | cancel | retry <batch-id>, on the desk `--store` chose (the data folder, or a
// team's store: every worker sees the change at its next look, within a second).
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { cancelSpec, pauseSpec, resumeSpec, retrySpec } from '../specs/control';
import { cancelledNotResumed, cancelledWords, describeBatch, notRunning, nothingToSwitch } from '../format';
import { UserError } from '../../engine/failures';
import { budgetArgument, parseEur } from '../../../shared/money';
import { confirmSpend, leftLines } from '../confirm-spend';
import { openCliDesk } from '../desk';
import type { Desk } from '../../desk/desk';
import type { BatchSummary } from '../../../shared/domain';

export type ControlVerb = 'pause' | 'resume' | 'cancel' | 'retry';

interface ControlValues {
  'data-dir'?: string;
  'api-url'?: string;
  store?: string;
  /** Only resume's spec defines it. */
  budget?: string;
  'switch-api'?: boolean;
  /** resume and retry: answer yes to the estimate of what they let be sent. */
  yes?: boolean;
}

/** resume's --budget: an amount in EUR, "none" (no budget), or absent (unchanged). */
function budgetOption(text: string | undefined): number | null | undefined {
  if (text === undefined || text === 'none') return text === undefined ? undefined : null;
  const budget = parseEur(text);
  if (budget === null) throw new UsageError(`--budget must be an amount in EUR such as 12.50 (at most 4 decimal places), or "none" (got "${text}").`);
  return budget;
}

async function control(verb: ControlVerb, values: ControlValues, positionals: string[], io: Io): Promise<ExitCode> {
  if (positionals.length !== 1) throw new UsageError(`${verb} takes exactly one batch id.`);
  const budget = budgetOption(values.budget);
  const desk = await openCliDesk(values, io);
  try {
    await act(desk, verb, positionals[0] ?? '', { budget, switchApi: values['switch-api'] === true, yes: values.yes === true }, io);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
}

interface ActOptions {
  budget: number | null | undefined;
  switchApi: boolean;
  yes: boolean;
}

async function act(desk: Desk, verb: ControlVerb, idOrPrefix: string, o: ActOptions, io: Io): Promise<void> {
  const c = desk.control;
  const flag = desk.storeFlag;
  const id = await c.resolveBatchId(idOrPrefix);
  // pause, resume and cancel act on every step of a pipeline: said, and every step shown where the
  // desk lists them (desk-words.ts stepsListed).
  const steps = verb === 'retry' || !desk.words.stepsListed ? [id] : await c.withPipelines([id]);
  const also = steps.length > 1 ? ` (with every step of its pipeline: ${steps.filter((s) => s !== id).join(', ')})` : '';
  const before = await c.summary(id);
  switch (verb) {
    case 'pause':
      io.stdout.write(
        io.carry(
          (await c.pause(id))
            ? `Paused ${id}${desk.words.forEveryone}${also}. In-flight items finish; nothing new is sent. \`batchdesk resume ${id}${flag}\` continues it.\n`
            : `${notRunning(before, flag)}\n`,
        ),
      );
      break;
    case 'resume':
      if (!(await resume(desk, id, before, o, also, io))) return;
      break;
    case 'cancel':
      io.stdout.write(`${cancelledWords(id, await c.cancel(id), also, desk.words.forEveryone)}\n`);
      break;
    case 'retry': {
      if (!(await askRetry(desk, id, before, o.yes, io))) return;
      const n = await c.retry(id);
      io.stdout.write(
        io.carry(
          n > 0
            ? `${n} failed item(s) queued again with their original idempotency keys. Run \`batchdesk run ${id}${flag}\`.\n`
            : `No failed items in ${id}.\n`,
        ),
      );
      break;
    }
  }
  io.stdout.write(`${(await c.summaries(steps)).map((s) => describeBatch(s, { storeFlag: flag, carry: io.carry })).join('\n')}\n`);
}

/** False when the user said no (nothing changed, and said so). */
async function resume(desk: Desk, id: string, before: BatchSummary, o: ActOptions, also: string, io: Io): Promise<boolean> {
  const { budget, switchApi } = o;
  if (before.status === 'cancelled') throw new UserError(cancelledNotResumed(id));
  const nothing = switchApi ? nothingToSwitch(before, desk.storeFlag) : null;
  if (nothing !== null) throw new UserError(nothing);
  // A paused batch (or any step of its pipeline) resumed, or a new budget, lets a running
  // Batchdesk send the rest with no one asked again: what is left, and the question, first.
  const paused = (await desk.control.summaries(await desk.control.withPipelines([id]))).some((s) => s.status === 'paused');
  if (paused || budget !== undefined) {
    const left = leftLines(await desk.control.leftToSend(id), { budget });
    const command = `batchdesk resume ${id}${budget !== undefined ? ` --budget ${budget === null ? 'none' : budgetArgument(budget)}` : ''}${switchApi ? ' --switch-api' : ''}${desk.storeFlag}`;
    const asked = await confirmSpend(io, {
      lines: left.lines,
      question: budget !== undefined && !paused ? 'Set that budget?' : 'Resume it?',
      command,
      declined: `Nothing was changed: ${id} stays ${paused ? 'paused' : 'as it was'}${budget !== undefined ? ', its budget too' : ''}.`,
      yes: o.yes || left.items === 0,
    });
    if (!asked) return false;
  }
  // A step whose key the API refused goes on with the key this computer has now (a team's store
  // re-checks it; the data folder's runs read this computer's key themselves).
  const r = await desk.control.resume(id, { ...(budget !== undefined ? { budget } : {}), switchApi, keyHere: desk.keyHere });
  for (const line of desk.words.resumed({ ...r, id, also, sentTo: before.sent_to, switchApi, budgetGiven: budget !== undefined }))
    io.stdout.write(io.carry(line));
  return true;
}

/** retry queues failed items again (and resumes a paused batch for them): a running Batchdesk sends them. False when the user said no. */
async function askRetry(desk: Desk, id: string, before: BatchSummary, yes: boolean, io: Io): Promise<boolean> {
  if (before.counts.failed === 0 || before.status === 'cancelled') return true;
  const left = leftLines(await desk.control.leftToSend(id), { again: id });
  return confirmSpend(io, {
    lines: left.lines,
    question: 'Queue the failed items again?',
    command: `batchdesk retry ${id}${desk.storeFlag}`,
    declined: `Nothing was changed: the ${before.counts.failed} failed item(s) of ${id} stay failed.`,
    yes,
  });
}

export const pauseCommand = bindCommand(pauseSpec, ({ values, positionals }, io) => control('pause', values, positionals, io));
export const resumeCommand = bindCommand(resumeSpec, ({ values, positionals }, io) => control('resume', values, positionals, io));
export const cancelCommand = bindCommand(cancelSpec, ({ values, positionals }, io) => control('cancel', values, positionals, io));
export const retryCommand = bindCommand(retrySpec, ({ values, positionals }, io) => control('retry', values, positionals, io));
