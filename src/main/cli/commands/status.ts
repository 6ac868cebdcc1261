import { parse } from '../parse';
import { EXIT, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine } from '../context';
import { describeBatch } from '../format';

export async function cmdStatus(args: string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
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
}
