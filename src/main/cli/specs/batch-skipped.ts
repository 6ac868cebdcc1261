import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const batchSkippedSpec = defineCommand({
  name: 'batch skipped',
  summary: "the rows a batch's import left out (invalid, opted out, duplicates, already sent) as a CSV to fix and import again",
  usage: ['<batch-id> [--out FILE]'],
  options: {
    ...STORE_OPTION,
    out: { type: 'string', value: 'FILE', help: 'file to write (its folder must exist); default: standard output' },
  },
  examples: [
    { command: 'batchdesk batch skipped b1a2b3 --out messages-rejected.csv', note: "the CSV's own columns of each refused row, and a problem column" },
    { command: 'batchdesk batch skipped b1a2b3 | head', note: 'the same CSV on standard output' },
  ],
  notes: ['The same CSV as "Download rejected rows" on the batch\'s page in the window (its problem column in English here).'],
});
