// pause | resume | cancel | retry: one spec each, since only resume takes --budget.
import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';
import { YES_OPTION } from './yes-option';

export const pauseSpec = defineCommand({
  name: 'pause',
  summary: 'stop sending new items of a batch (in-flight items finish)',
  usage: ['<batch-id>'],
  options: { ...STORE_OPTION },
  examples: [{ command: 'batchdesk pause b1a2b3' }],
});

export const resumeSpec = defineCommand({
  name: 'resume',
  summary: 'let a paused batch continue (then `batchdesk run` sends it)',
  usage: ['<batch-id> [--budget EUR|none] [--switch-api] [--yes]'],
  options: {
    ...STORE_OPTION,
    ...YES_OPTION,
    budget: { type: 'string', value: 'EUR|none', help: 'set a new budget while resuming (none clears it)' },
    'switch-api': {
      type: 'boolean',
      help: "forget the API the batch was first sent to: its next run sends the rest wherever that run sends (that API does not know the earlier items' idempotency keys)",
    },
  },
  examples: [
    { command: 'batchdesk resume b1a2b3' },
    { command: 'batchdesk resume b1a2b3 --budget 40', note: 'when the budget paused it' },
    { command: 'batchdesk resume b1a2b3 --switch-api', note: 'send the rest to the API the next run uses' },
    { command: 'batchdesk resume b1a2b3 --yes', note: 'in a script: without asking' },
  ],
  notes: [
    'It shows what is left to send (items, units, the estimate of what remains, what was spent, the budget) and asks',
    'before resuming: a Batchdesk that is running sends the rest with no one asked again. --yes answers for a script.',
  ],
});

export const cancelSpec = defineCommand({
  name: 'cancel',
  summary: 'cancel a batch and the pipeline steps with work left; refused once nothing is left',
  usage: ['<batch-id>'],
  options: { ...STORE_OPTION },
  examples: [{ command: 'batchdesk cancel b1a2b3' }],
});

export const retrySpec = defineCommand({
  name: 'retry',
  summary: "queue a batch's failed items again (same idempotency keys, nothing is done twice)",
  usage: ['<batch-id> [--yes]'],
  options: { ...STORE_OPTION, ...YES_OPTION },
  examples: [
    { command: 'batchdesk retry b1a2b3', note: 'then `batchdesk run b1a2b3`' },
    { command: 'batchdesk retry b1a2b3 --yes', note: 'in a script: without asking' },
  ],
  notes: [
    'It shows what sending the failed items again is estimated to cost (an item that never reached the API, such as a',
    'file missing at the time, is paid for once it succeeds) and asks first. --yes answers for a script.',
  ],
});
