// schedule <batch-id> --at TIME | --now | --clear
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { scheduleSpec } from '../specs/schedule';
import { describeBatch, localTime } from '../format';
import { confirmSpend, leftLines } from '../confirm-spend';
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
      const before = await c.summary(id);
      if (values.now === true && before.started) throw new UsageError(`Batch ${id} has already started.`);
      // A time (or now) lets a running Batchdesk send it with no one asked again: what it would
      // send, and the question, first. A batch that cannot be scheduled is refused below unasked.
      if (values.clear !== true && !before.started && before.status !== 'cancelled') {
        const left = leftLines(await c.leftToSend(id));
        const when = values.now === true ? 'now' : `at ${localTime(at ?? 0)}`;
        const asked = await confirmSpend(io, {
          lines: [...left.lines, `Scheduled, it is sent ${when} by a Batchdesk that is running, with no one asked again.`],
          question: values.now === true ? 'Start it now?' : 'Schedule it?',
          command: `batchdesk schedule ${id} ${values.now === true ? '--now' : `--at "${values.at ?? ''}"`}${desk.storeFlag}`,
          declined: `Nothing was changed: ${id} ${before.scheduled_for !== null ? `stays scheduled for ${localTime(Date.parse(before.scheduled_for))}` : 'waits for its start'}.`,
          yes: values.yes === true || left.items === 0,
          toStderr: values.json === true,
        });
        if (!asked) return EXIT.ok;
      }
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
