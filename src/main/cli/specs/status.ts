import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const statusSpec = defineCommand({
  name: 'status',
  summary: 'show batches: progress, counts by state, cost, and why a batch is paused',
  usage: ['[batch-id...] [--json]'],
  options: {
    ...STORE_OPTION,
    json: { type: 'boolean', help: 'print {"batches": [...]} as documented in docs/batches.md' },
  },
  examples: [{ command: 'batchdesk status', note: 'every batch' }, { command: 'batchdesk status b1a2b3 --json' }],
});
