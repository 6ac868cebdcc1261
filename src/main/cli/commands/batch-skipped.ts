// `batch skipped ID`: the rows its import left out, kept with the batch, as the CSV the window's
// "Download rejected rows" gives (shared/skipped-rows.ts), its problem column in English.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { batchSkippedSpec } from '../specs/batch-skipped';
import { openCliDesk } from '../desk';
import { englishCause, skippedRowsCsv } from '../../../shared/skipped-rows';

export const batchSkippedCommand = bindCommand(batchSkippedSpec, async ({ values, positionals }, io) => {
  const [idText, ...extra] = positionals;
  if (idText === undefined || extra.length > 0) throw new UsageError('batch skipped takes one batch id: `batchdesk batch skipped ID [--out FILE]`.');
  const desk = await openCliDesk(values, io, { read: true });
  try {
    const id = await desk.control.resolveBatchId(idText);
    const rows = await desk.skippedRows(id);
    if (rows.length === 0) {
      io.stderr.write(
        `No rows of batch ${id} were left out${desk.words.inStore}: every row of its import became an item (a batch made before this version kept none).\n`,
      );
      return EXIT.ok;
    }
    const csv = skippedRowsCsv(rows, englishCause);
    const count = new Set(rows.map((r) => `${r.source}\u0000${r.row}`)).size;
    if (values.out === undefined) {
      io.stdout.write(csv);
      return EXIT.ok;
    }
    const out = resolve(values.out);
    await writeFile(out, csv);
    io.stdout.write(
      `Wrote ${count} row(s) left out of ${id} to ${out}: fix them there and import the file again (the problem column says why each was left out).\n`,
    );
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
