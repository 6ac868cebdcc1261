// pause | resume | cancel | retry <batch-id>, on the desk `--store` chose (the data folder, or a
// team's store: every worker sees the change at its next look, within a second).
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { cancelSpec, pauseSpec, resumeSpec, retrySpec } from '../specs/control';
import { cancelledNotResumed, cancelledWords, describeBatch, notRunning, nothingToSwitch } from '../format';
import { UserError } from '../../engine/failures';
import { parseEur } from '../../../shared/money';
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
    await act(desk, verb, positionals[0] ?? '', budget, values['switch-api'] === true, io);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
}

async function act(desk: Desk, verb: ControlVerb, idOrPrefix: string, budget: number | null | undefined, switchApi: boolean, io: Io): Promise<void> {
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
      await resume(desk, id, before, budget, switchApi, also, io);
      break;
    case 'cancel':
      io.stdout.write(`${cancelledWords(id, await c.cancel(id), also, desk.words.forEveryone)}\n`);
      break;
    case 'retry': {
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

async function resume(
  desk: Desk,
  id: string,
  before: BatchSummary,
  budget: number | null | undefined,
  switchApi: boolean,
  also: string,
  io: Io,
): Promise<void> {
  if (before.status === 'cancelled') throw new UserError(cancelledNotResumed(id));
  const nothing = switchApi ? nothingToSwitch(before, desk.storeFlag) : null;
  if (nothing !== null) throw new UserError(nothing);
  // A step whose key the API refused goes on with the key this computer has now (a team's store
  // re-checks it; the data folder's runs read this computer's key themselves).
  const r = await desk.control.resume(id, { ...(budget !== undefined ? { budget } : {}), switchApi, keyHere: desk.keyHere });
  for (const line of desk.words.resumed({ ...r, id, also, sentTo: before.sent_to, switchApi, budgetGiven: budget !== undefined }))
    io.stdout.write(io.carry(line));
}

export const pauseCommand = bindCommand(pauseSpec, ({ values, positionals }, io) => control('pause', values, positionals, io));
export const resumeCommand = bindCommand(resumeSpec, ({ values, positionals }, io) => control('resume', values, positionals, io));
export const cancelCommand = bindCommand(cancelSpec, ({ values, positionals }, io) => control('cancel', values, positionals, io));
export const retryCommand = bindCommand(retrySpec, ({ values, positionals }, io) => control('retry', values, positionals, io));
