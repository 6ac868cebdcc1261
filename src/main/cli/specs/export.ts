import { defineCommand } from '../command-spec';

export const exportSpec = defineCommand({
  name: 'export',
  summary: "write a batch's results to a file",
  usage: ['<batch-id> --format csv|json|txt --out PATH'],
  options: {
    format: { type: 'string', value: 'csv|json|txt', help: 'file format' },
    out: { type: 'string', value: 'PATH', help: 'file to write (its folder must exist)' },
  },
  examples: [{ command: 'batchdesk export b1a2b3 --format csv --out results.csv' }],
});
