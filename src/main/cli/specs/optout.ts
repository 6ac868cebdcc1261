import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const optoutSpec = defineCommand({
  name: 'optout',
  summary: 'the opt-out list: recipients who are never sent a message (checked at create and before each send)',
  usage: ['add <recipient>...', 'remove <recipient>...', 'import FILE', 'list [--json]'],
  options: {
    json: { type: 'boolean', help: 'list: print {"opt_outs": [{"recipient", "added_at", "source"}]}' },
    ...STORE_OPTION,
  },
  examples: [
    { command: 'batchdesk optout add "+44 20 7946 0123" jo@example.com', note: 'numbers and addresses are stored as sent to (+442079460123)' },
    { command: 'batchdesk optout import unsubscribed.csv', note: 'a column to, recipient, phone, number or email; or one recipient per line' },
    { command: 'batchdesk optout remove +442079460123', note: 'they asked to hear from you again' },
    { command: 'batchdesk optout list' },
    { command: 'batchdesk optout add +442079460123 --store postgresql://batchdesk@db.office.lan/batchdesk', note: "the team's list: no worker messages them" },
  ],
  notes: [
    "A message CSV with a column opt_out (yes, true, 1) puts that row's recipient on the list when the batch is",
    'created. A recipient on the list is left out of new batches (reported with its row) and, if a batch already',
    'has them, is not sent to: the item is cancelled just before it would go, with the reason.',
    "With --store, the team's list in the shared store: every worker checks it, besides its own machine's list,",
    'before each message.',
  ],
});
