// schedule <batch-id> --at TIME | --now | --clear
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { scheduleSpec } from '../specs/schedule';
import { describeBatch } from '../format';
import { parseAt } from '../../engine/queue/schedule';
import { openCliDesk } from '../desk';
import { UserError } from '../../engine/failures';
import type { BatchSummary } from '../../../shared/domain';

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
      io.stdout.write(io.carry(desk.words.afterSchedule(id, values.now === true, at)));
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
