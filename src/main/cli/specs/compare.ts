import { defineCommand } from '../command-spec';
import { YES_OPTION } from './yes-option';

export const compareSpec = defineCommand({
  name: 'compare',
  sends: true,
  summary: "send the same few items of a batch at several tiers, side by side: each tier's result and cost, per item and projected",
  usage: ['<batch-id> --tiers basic,standard,superior [--sample N] [--json] [--yes]'],
  options: {
    tiers: { type: 'string', value: 'TIERS', help: 'two or three of basic, standard, superior, comma-separated' },
    sample: { type: 'string', value: 'N', help: 'how many items, chosen across the batch (1-50, default 5)' },
    json: { type: 'boolean', help: 'print the comparison as JSON' },
    ...YES_OPTION,
  },
  examples: [
    {
      command: 'batchdesk compare b1a2b3 --tiers basic,standard,superior --sample 5',
      note: 'five recordings transcribed three times: pick the tier on evidence',
    },
  ],
  notes: [
    'Each tier becomes a batch of its own ("<name>: basic tier (comparison)"), sent now and paid for like any other;',
    "the projection is the measured cost per item times the batch's items. Messages and CRM writes are never",
    'compared (they would reach people or records once per tier). In the window: Compare tiers… on the batch.',
    'It shows the estimate per tier and asks before sending; --yes sends without asking (a script must give it).',
  ],
});
