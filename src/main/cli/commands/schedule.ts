// schedule <batch-id> --at TIME | --now | --clear
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { scheduleSpec } from '../specs/schedule';
import { globalOptions, openEngine } from '../context';
import { describeBatch } from '../format';
import { parseAt } from '../../engine/queue/schedule';
import { openChosenStore, teamSchedule } from './team';
import { resolveTeamBatch } from '../../engine/team/team-batches';

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
  // A team's shared store (--store, BATCHDESK_STORE): the shared batch's time, for every worker.
  const shared = await openChosenStore(values.store, io.env);
  if (shared) {
    try {
      const id = await resolveTeamBatch(shared.store, positionals[0] ?? '');
      const b = await teamSchedule(shared, id, values.now === true ? undefined : at);
      if (values.json) io.stdout.write(`${JSON.stringify(b, null, 2)}\n`);
      else {
        io.stdout.write(`${describeBatch(b, { shared: true, carry: io.carry })}\n`);
        io.stdout.write(
          io.carry(values.now === true
            ? `Started: the team's workers send it (\`batchdesk run --store URL\` on a worker that is not running yet).\n`
            : at === null
              ? `No start time any more: the batch waits for its start (\`batchdesk run ${id} --store URL\`).\n`
              : `A worker of the team running then starts it (\`batchdesk run --watch --store URL\`, or \`batchdesk run ${id} --store URL\`, which waits for it).\n`),
        );
      }
      return EXIT.ok;
    } finally {
      await shared.store.close();
    }
  }
  const engine = openEngine(globalOptions(values, io.env), io);
  try {
    const id = engine.resolveBatchId(positionals[0] ?? '');
    if (values.now === true) {
      const before = engine.summary(id);
      if (before.started) throw new UsageError(`Batch ${id} has already started.`);
      engine.start([id], { now: true });
    } else {
      engine.schedule(id, at);
    }
    const b = engine.summary(id);
    if (values.json) io.stdout.write(`${JSON.stringify(b, null, 2)}\n`);
    else {
      io.stdout.write(`${describeBatch(b, { carry: io.carry })}\n`);
      io.stdout.write(
        io.carry(values.now === true
          ? `Started: a Batchdesk that is running sends it now; otherwise \`batchdesk run ${id}\`.\n`
          : at === null
            ? `No start time any more: the batch waits for its start (\`batchdesk run ${id}\`, or Start in the window).\n`
            : `It starts by itself then, in whichever Batchdesk is running (or the first one started after).\n`),
      );
    }
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
