import { EXIT } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { statusSpec } from '../specs/status';
import { globalOptions, openEngine } from '../context';
import { describeBatch } from '../format';

export const statusCommand = bindCommand(statusSpec, async ({ values, positionals }, io) => {
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const batches = positionals.length > 0 ? positionals.map((p) => engine.summary(engine.resolveBatchId(p))) : engine.summaries();
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ batches }, null, 2)}\n`);
    } else if (batches.length === 0) {
      io.stdout.write('No batches yet. Create one with `batchdesk batch create ...` or try `batchdesk demo`.\n');
    } else {
      io.stdout.write(`${batches.map(describeBatch).join('\n\n')}\n`);
    }
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
