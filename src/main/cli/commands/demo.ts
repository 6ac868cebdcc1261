// The newcomer's first command: the bundled samples, on the embedded sandbox, end to end.
import { join } from 'node:path';
import { parse } from '../parse';
import { EXIT, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine } from '../context';
import { describeProblems } from '../format';
import { packageRoot } from '../package-root';
import { runBatches } from './run';
import type { CreateBatchInput } from '../../engine/batch-input';
import { formatEur } from '../../../shared/money';

export async function cmdDemo(args: string[], io: Io): Promise<ExitCode> {
  const { values } = parse(args, {});
  const g = globalOptions(values, io.env);
  const samples = join(packageRoot(), 'resources', 'samples');
  const engine = openEngine(g, io.env);
  try {
    const inputs: CreateBatchInput[] = [
      { capability: 'transcribe', paths: [join(samples, 'recordings')], name: 'Demo: call recordings' },
      { capability: 'ocr', paths: [join(samples, 'invoices')], name: 'Demo: scanned invoices' },
      { capability: 'channel', paths: [join(samples, 'messages.csv')], channel: 'whatsapp', name: 'Demo: order messages' },
    ];
    const ids: string[] = [];
    for (const input of inputs) {
      const { batch, problems } = await engine.createBatch(input);
      if (problems.length > 0) io.stderr.write(`${describeProblems(problems)}\n`);
      if (batch) {
        ids.push(batch.id);
        io.stdout.write(`Created ${batch.id} (${batch.name}): ${batch.total} items, estimated ${formatEur(batch.cost.estimated, 4)}\n`);
      }
    }
    const code = await runBatches(engine, ids, io, g.apiUrl, g.dataDir);
    for (const id of ids) {
      const first = engine.db.prepare(`SELECT source, result_json FROM jobs WHERE batch_id = ? AND state = 'succeeded' ORDER BY seq LIMIT 1`).get(id) as
        | { source: string; result_json: string }
        | undefined;
      if (first) io.stdout.write(`\nFirst result of ${id} (${first.source}):\n  ${first.result_json.slice(0, 300)}\n`);
    }
    io.stdout.write(`\nData folder: ${g.dataDir}\nExport with: batchdesk export <batch-id> --format csv --out results.csv\n`);
    return code === EXIT.ok ? EXIT.ok : code;
  } finally {
    engine.close();
  }
}
