// pause | resume | cancel | retry <batch-id>, on the desk `--store` chose (the data folder, or a
// team's store: every worker sees the change at its next look, within a second).
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { cancelSpec, pauseSpec, resumeSpec, retrySpec } from '../specs/control';
import { cancelledNotResumed, cancelledWords, describeBatch, notRunning, nothingToSwitch } from '../format';
import { UserError } from '../../engine/failures';
import { parseEur } from '../../../shared/money';
import { destinationWords, runCommandFor } from '../../engine/api/destination';
import { shortBudgetWords } from '../../engine/pipeline/budget-floor';
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
  const shared = desk.shared;
  const flag = shared ? ' --store URL' : '';
  const id = await c.resolveBatchId(idOrPrefix);
  // pause, resume and cancel act on every step of a pipeline: said, and every step shown (a team's
  // batch is shown alone: its steps are in `status --store`).
  const steps = verb === 'retry' || shared ? [id] : await c.withPipelines([id]);
  const also = steps.length > 1 ? ` (with every step of its pipeline: ${steps.filter((s) => s !== id).join(', ')})` : '';
  const before = await c.summary(id);
  switch (verb) {
    case 'pause':
      io.stdout.write(
        io.carry(
          (await c.pause(id))
            ? `Paused ${id}${shared ? ' for every worker' : also}. In-flight items finish; nothing new is sent. \`batchdesk resume ${id}${flag}\` continues it.\n`
            : `${notRunning(before, flag)}\n`,
        ),
      );
      break;
    case 'resume':
      await resume(desk, id, before, budget, switchApi, also, io);
      break;
    case 'cancel':
      io.stdout.write(`${cancelledWords(id, await c.cancel(id), shared ? '' : also, shared)}\n`);
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
  const shared = desk.shared;
  if (before.status === 'cancelled') throw new UserError(cancelledNotResumed(id));
  const nothing = switchApi ? nothingToSwitch(before, desk.storeFlag) : null;
  if (nothing !== null) throw new UserError(nothing);
  // On a team's store, a step whose key the API refused goes on with the key this computer has now.
  const { resumed, newKey, sameKey, short } = await desk.control.resume(id, {
    ...(budget !== undefined ? { budget } : {}),
    switchApi,
    ...(shared ? { keyHere: desk.keyHere } : {}),
  });
  const sentTo = before.sent_to;
  if (!shared) {
    const forgot =
      switchApi && sentTo !== null ? ` It no longer keeps to ${destinationWords(sentTo)}: its next run sends the rest wherever that run sends.` : '';
    // Paused by its budget, and that budget (kept, or the new one) still below what is left: it
    // pauses again at the next item that does not fit, so the amount that covers the rest is
    // named now, in place of the run to start.
    const next = short ? ` ${shortBudgetWords(id, short, false)}` : ` Run \`${runCommandFor(id, switchApi ? null : sentTo)}\` to continue sending.`;
    io.stdout.write(
      io.carry(resumed ? `Resumed ${id}${also}.${forgot}${next}\n` : `${id} was not paused${budget !== undefined ? ' (budget updated)' : ''}.${forgot}\n`),
    );
    return;
  }
  if (switchApi && sentTo !== null) {
    io.stdout.write(`It no longer keeps to ${destinationWords(sentTo)}: the next worker to send it records the API it sends to, and the rest goes there.\n`);
  }
  if (newKey) {
    io.stdout.write(
      io.carry(
        `The key it was sent with was refused by the API, so it is now sent with this computer's key (…${newKey.hint}): every worker that sends it needs that same key (\`batchdesk keys add\`, or the environment variable).\n`,
      ),
    );
  }
  if (sameKey) {
    io.stdout.write(
      `It goes on with the key the API refused (…${sameKey.hint}), the one this computer has: if that key was revoked, it pauses again at its first request; replace the key here (or resume from a computer with the new one) to send it with another.\n`,
    );
  }
  io.stdout.write(
    io.carry(
      resumed && short
        ? `Resumed ${id}. ${shortBudgetWords(id, short, true)}\n`
        : resumed
          ? `Resumed ${id}. Standing workers (\`batchdesk run --watch --store URL\`) pick it up within a second; a worker without --watch ended when it paused, so start one (\`batchdesk run ${id} --store URL\`) if none is standing.\n`
          : `${id} was not paused${budget !== undefined ? ' (budget updated)' : ''}.\n`,
    ),
  );
}

export const pauseCommand = bindCommand(pauseSpec, ({ values, positionals }, io) => control('pause', values, positionals, io));
export const resumeCommand = bindCommand(resumeSpec, ({ values, positionals }, io) => control('resume', values, positionals, io));
export const cancelCommand = bindCommand(cancelSpec, ({ values, positionals }, io) => control('cancel', values, positionals, io));
export const retryCommand = bindCommand(retrySpec, ({ values, positionals }, io) => control('retry', values, positionals, io));
