import { EXIT } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { statusSpec } from '../specs/status';
import { statusWords, withStatusFacts } from '../batch-status';
import { workerState } from '../../../shared/team-batch';
import { openCliDesk } from '../desk';
import type { DeskWorkers } from '../../desk/desk';

/** "Workers up: host 412 (standing, 3 in flight), laptop 77 (idle)", or that none is. */
function workersUpLine(w: DeskWorkers, storeFlag: string): string {
  if (w.up.length === 0)
    return `Workers up: none (start one with \`batchdesk run${storeFlag}\`, or \`batchdesk run --watch${storeFlag}\` to keep one standing).`;
  return `Workers up: ${w.up.map((x) => `${x.worker} (${workerState(x)})`).join(', ')}`;
}

export const statusCommand = bindCommand(statusSpec, async ({ values, positionals }, io) => {
  const desk = await openCliDesk(values, io, { read: true });
  try {
    const c = desk.control;
    // Naming one step of a pipeline shows every step.
    const listed =
      positionals.length > 0 ? await c.summaries(await c.withPipelines(await Promise.all(positionals.map((p) => c.resolveBatchId(p))))) : await c.summaries();
    const batches = await withStatusFacts(desk, listed);
    // Senders other than this computer (a team's workers): who holds what, and who is up.
    const w = await desk.workers();
    if (values.json) {
      const senders = w ? { workers: w.holding, workers_up: w.up } : {};
      io.stdout.write(`${JSON.stringify({ ...(desk.url !== null ? { store: desk.url } : {}), batches, ...senders }, null, 2)}\n`);
      return EXIT.ok;
    }
    const upLine = w ? `\n${io.carry(workersUpLine(w, desk.storeFlag))}\n` : '';
    if (batches.length === 0) {
      io.stdout.write(
        io.carry(`No batches yet${desk.words.inStore}. Create one with \`batchdesk batch create ...${desk.storeFlag}\` or try \`batchdesk demo\`.\n${upLine}`),
      );
    } else {
      io.stdout.write(`${await statusWords(desk, batches, io, w)}\n${upLine}`);
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
