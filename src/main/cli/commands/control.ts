// pause | resume | cancel | retry <batch-id>
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { cancelSpec, pauseSpec, resumeSpec, retrySpec } from '../specs/control';
import { globalOptions, openEngine } from '../context';
import type { Engine } from '../../engine/engine';
import { cancelledNotResumed, cancelledWords, describeBatch, notRunning, nothingToSwitch } from '../format';
import { UserError } from '../../engine/failures';
import { formatEur, parseEur } from '../../../shared/money';
import { openChosenStore, teamControl } from './team';
import { destinationWords, runCommandFor } from '../../engine/api/destination';
import { shortBudgetWords } from '../../engine/pipeline/budget-floor';

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
  const shared = await openChosenStore(values.store, io.env);
  if (shared) {
    // Resuming reads this computer's keys: a batch whose key the API refused goes on with the key this computer has now.
    let engine: Engine | null = null;
    try {
      engine = verb === 'resume' ? openEngine(globalOptions(values, io.env), io) : null;
      const here = engine;
      return await teamControl(shared, verb, positionals[0] ?? '', budget, io, here ? (row) => here.keyCheckFor(row) : undefined, values['switch-api'] === true);
    } finally {
      engine?.close();
      await shared.store.close();
    }
  }
  const engine = openEngine(globalOptions(values, io.env), io);
  try {
    const id = engine.resolveBatchId(positionals[0] ?? '');
    // pause, resume and cancel act on every step of a pipeline: say so, and show every step.
    const steps = verb === 'retry' ? [id] : engine.withPipelines([id]);
    const also = steps.length > 1 ? ` (with every step of its pipeline: ${steps.filter((s) => s !== id).join(', ')})` : '';
    const before = engine.summary(id);
    switch (verb) {
      case 'pause':
        io.stdout.write(io.carry(engine.pause(id) ? `Paused ${id}${also}. In-flight items finish; nothing new is sent. \`batchdesk resume ${id}\` continues it.\n` : `${notRunning(before, false)}\n`));
        break;
      case 'resume': {
        if (before.status === 'cancelled') throw new UserError(cancelledNotResumed(id));
        const switchApi = values['switch-api'] === true;
        const nothing = switchApi ? nothingToSwitch(before, false) : null;
        if (nothing !== null) throw new UserError(nothing);
        const sentTo = before.sent_to;
        // The step its budget paused: the one named, or another step of its pipeline (a finished
        // first step is not paused when a summary after it crosses the budget).
        const budgetPaused = steps.find((s) => engine.summary(s).pause?.kind === 'budget');
        const resumed = engine.resume(id, { ...(budget !== undefined ? { budget } : {}), switchApi });
        // Paused by its budget, and that budget (kept, or the new one) still below what is left:
        // it pauses again at the next item that does not fit, so the amount that covers the rest
        // is named now, in place of the run to start.
        const short = budgetPaused === undefined ? null : engine.budgetShortOf(budgetPaused);
        const forgot = switchApi && sentTo !== null ? ` It no longer keeps to ${destinationWords(sentTo)}: its next run sends the rest wherever that run sends.` : '';
        const next = short
          ? ` ${shortBudgetWords(id, short, false)}`
          : ` Run \`${runCommandFor(id, switchApi ? null : sentTo)}\` to continue sending.`;
        io.stdout.write(
          io.carry(
            resumed
              ? `Resumed ${id}${also}.${forgot}${next}\n`
              : `${id} was not paused${budget !== undefined ? ' (budget updated)' : ''}.${forgot}\n`,
          ),
        );
        break;
      }
      case 'cancel': {
        io.stdout.write(`${cancelledWords(id, engine.cancel(id), also, false)}\n`);
        break;
      }
      case 'retry': {
        const n = engine.retryFailed(id);
        io.stdout.write(io.carry(n > 0 ? `${n} failed item(s) queued again with their original idempotency keys. Run \`batchdesk run ${id}\`.\n` : `No failed items in ${id}.\n`));
        break;
      }
    }
    io.stdout.write(`${steps.map((s) => describeBatch(engine.summary(s), { carry: io.carry })).join('\n')}\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
}

export const pauseCommand = bindCommand(pauseSpec, ({ values, positionals }, io) => control('pause', values, positionals, io));
export const resumeCommand = bindCommand(resumeSpec, ({ values, positionals }, io) => control('resume', values, positionals, io));
export const cancelCommand = bindCommand(cancelSpec, ({ values, positionals }, io) => control('cancel', values, positionals, io));
export const retryCommand = bindCommand(retrySpec, ({ values, positionals }, io) => control('retry', values, positionals, io));
