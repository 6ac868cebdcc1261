// schedule <batch-id> --at TIME | --now | --clear
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { scheduleSpec } from '../specs/schedule';
import { describeBatch } from '../format';
import { parseAt } from '../../engine/queue/schedule';
import { openCliDesk } from '../desk';
import { UserError } from '../../engine/failures';
import type { BatchSummary } from '../../../shared/domain';

/** What happens next on this computer. */
function localWords(id: string, now: boolean, at: number | null): string {
  return now
    ? `Started: a Batchdesk that is running sends it now; otherwise \`batchdesk run ${id}\`.\n`
    : at === null
      ? `No start time any more: the batch waits for its start (\`batchdesk run ${id}\`, or Start in the window).\n`
      : `It starts by itself then, in whichever Batchdesk is running (or the first one started after).\n`;
}

/** What happens next for a team's batch. */
function teamWords(id: string, now: boolean, at: number | null): string {
  return now
    ? `Started: the team's workers send it (\`batchdesk run --store URL\` on a worker that is not running yet).\n`
    : at === null
      ? `No start time any more: the batch waits for its start (\`batchdesk run ${id} --store URL\`).\n`
      : `A worker of the team running then starts it (\`batchdesk run --watch --store URL\`, or \`batchdesk run ${id} --store URL\`, which waits for it).\n`;
}

export const scheduleCommand = bindCommand(scheduleSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('schedule takes exactly one batch id.');
  const chosen = [values.at !== undefined, values.now === true, values.clear === true].filter(Boolean).length;
  if (chosen !== 1) throw new UsageError('schedule takes one of --at TIME, --now or --clear.');
  let at: number | null = null;
  if (values.at !== undefined) {
    const r = parseAt(values.at);
    if (!r.ok) throw new UsageError(`--at: ${r.reason}`);
    at = r.at;
  }
  // The data folder's batch, or a team's (--store, BATCHDESK_STORE): its time, for every worker.
  const desk = await openCliDesk(values, io);
  try {
    const c = desk.control;
    const id = await c.resolveBatchId(positionals[0] ?? '');
    let b: BatchSummary;
    try {
      if (values.now === true && (await c.summary(id)).started) throw new UsageError(`Batch ${id} has already started.`);
      b = await c.schedule(id, values.now === true ? 'now' : at);
    } catch (e) {
      // Refused as a usage mistake (exit 2): a time in the past, a batch started or cancelled.
      if (e instanceof UserError) throw new UsageError(e.message);
      throw e;
    }
    if (values.json) io.stdout.write(`${JSON.stringify(b, null, 2)}\n`);
    else {
      io.stdout.write(`${describeBatch(b, { storeFlag: desk.storeFlag, carry: io.carry })}\n`);
      io.stdout.write(io.carry(desk.shared ? teamWords(id, values.now === true, at) : localWords(id, values.now === true, at)));
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
