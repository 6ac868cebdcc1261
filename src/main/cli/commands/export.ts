import { resolve } from 'node:path';
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { exportSpec } from '../specs/export';
import { globalOptions, openEngine } from '../context';
import type { ExportFormat } from '../../engine/exporters/export-batch';

const FORMATS: readonly ExportFormat[] = ['csv', 'json', 'txt'];

export const exportCommand = bindCommand(exportSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('export takes exactly one batch id.');
  const format = FORMATS.find((f) => f === values.format);
  if (!format) throw new UsageError(`--format must be csv, json or txt (got "${values.format ?? ''}").`);
  if (!values.out) throw new UsageError('export needs --out PATH.');
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const id = engine.resolveBatchId(positionals[0] ?? '');
    const out = resolve(values.out);
    const n = await engine.exportBatch(id, format, out);
    io.stdout.write(`Wrote ${n} item(s) of ${id} to ${out}\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
