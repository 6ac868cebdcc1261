// The newcomer's first command: the bundled samples, on the embedded sandbox, end to end.
import { join } from 'node:path';
import { EXIT } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { demoSpec } from '../specs/demo';
import { globalOptions, openEngine } from '../context';
import { describeProblems } from '../format';
import { packageRoot } from '../package-root';
import { runBatches } from './run';
import { localDesk } from '../../desk/local-desk';
import type { CreateBatchInput } from '../../engine/batch-input';
import { formatEur } from '../../../shared/money';

export const demoCommand = bindCommand(demoSpec, async ({ values }, io) => {
  const g = globalOptions(values, io.env);
  const samples = join(packageRoot(), 'resources', 'samples');
  // Said before anything is written: by default the demo's batches land beside the user's own.
  const chosenWith = values['data-dir'] !== undefined ? '--data-dir' : io.env.BATCHDESK_DATA_DIR ? 'BATCHDESK_DATA_DIR' : null;
  io.stdout.write(
    chosenWith !== null
      ? `The demo's batches go into the data folder ${g.dataDir} (${chosenWith}).\n\n`
      : `The demo's batches go into the data folder ${g.dataDir}\n` +
          `To keep them apart from your own, choose another with --data-dir DIR (npm run demo -- --data-dir /tmp/batchdesk-demo).\n\n`,
  );
  const engine = openEngine(g, io);
  try {
    // The demo may be run again on purpose: its samples are allowed to repeat earlier demo batches.
    const inputs: CreateBatchInput[] = [
      { capability: 'transcribe', paths: [join(samples, 'recordings')], name: 'Demo: call recordings', allowResend: true },
      { capability: 'ocr', paths: [join(samples, 'invoices')], name: 'Demo: scanned invoices', allowResend: true },
      { capability: 'channel', paths: [join(samples, 'messages.csv')], channel: 'whatsapp', name: 'Demo: order messages', allowResend: true },
    ];
    const ids: string[] = [];
    for (const input of inputs) {
      const { batch, problems } = await engine.createBatch(input);
      if (problems.length > 0) io.stderr.write(`${describeProblems(problems, io.carry)}\n`);
      if (batch) {
        ids.push(batch.id);
        io.stdout.write(`Created ${batch.id} (${batch.name}): ${batch.total} items, estimated ${formatEur(batch.cost.estimated, 4)}\n`);
      }
    }
    const code = await runBatches(localDesk(engine), ids, io, g);
    for (const id of ids) {
      const first = engine.jobs.firstSucceeded(id);
      if (first)
        io.stdout.write(
          `\nFirst result of ${id} (${first.source}):\n  ${first.result_json.length > 300 ? `${first.result_json.slice(0, 300)}…` : first.result_json}\n`,
        );
    }
    // A suggested command: the command line adds the --data-dir the demo was given (suggested-commands.ts).
    io.stdout.write(
      io.carry(
        `\nThe demo's data went into ${g.dataDir}\nExport a batch's results with: \`batchdesk export ${ids[0] ?? ''} --format csv --out ${ids[0] ?? 'results'}.csv\` (or another batch's id)\n`,
      ),
    );
    return code === EXIT.ok ? EXIT.ok : code;
  } finally {
    engine.close();
  }
});
