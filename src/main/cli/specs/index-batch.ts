import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';
import { YES_OPTION } from './yes-option';

export const indexSpec = defineCommand({
  name: 'index',
  sends: true,
  summary: "embed a batch's results for search by meaning, and send them (a follow-up embeddings batch)",
  usage: ['<batch-id> [--tier basic|standard|superior] [--yes]'],
  options: {
    ...STORE_OPTION,
    tier: { type: 'string', value: 'basic|standard|superior', help: 'tier of the embeddings (default standard)' },
    ...YES_OPTION,
  },
  examples: [
    { command: 'batchdesk index b1a2b3', note: 'then: batchdesk search "billed two times" --semantic' },
    {
      command: 'batchdesk index b1a2b3 --store postgresql://batchdesk@db.office.lan/batchdesk',
      note: "a team's batch: the vectors go to the shared store, this computer sends as a worker",
    },
  ],
  notes: [
    'The same as `batch create embeddings --from <batch-id>` then `run`; run again, it sends what is left of that',
    'embeddings batch (results the batch finishes later join it). Like run, it runs every step of the pipeline.',
    'It shows the estimate and asks before sending; --yes sends without asking (a script must give it).',
  ],
});
