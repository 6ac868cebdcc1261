import { defineCommand } from '../command-spec';

export const exportSpec = defineCommand({
  name: 'export',
  summary: "write a batch's results to a file, or each item's own file to a folder",
  usage: ['<batch-id> --format csv|json|txt --out PATH', '<batch-id> --format files --out DIR'],
  options: {
    format: { type: 'string', value: 'csv|json|txt|files', help: 'file format; files: one file per succeeded item (speech, images, .txt per text result)' },
    out: { type: 'string', value: 'PATH', help: 'file to write (its folder must exist); for --format files, the folder (created if missing)' },
  },
  examples: [
    { command: 'batchdesk export b1a2b3 --format csv --out results.csv' },
    { command: 'batchdesk export b1a2b3 --format files --out ~/speech', note: 'greeting.wav, row-3.wav, ... (never overwrites: a taken name gets " (2)")' },
  ],
  notes: [
    '--format files writes audio and images as received, a .txt per transcript, OCR text or text result,',
    'named after the source file or the row (its name column, else row-N / line-N). Channel, embeddings and',
    'CRM batches have no file per item: use --format csv or json.',
  ],
});
