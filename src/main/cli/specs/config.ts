import { defineCommand } from '../command-spec';

export const configSpec = defineCommand({
  name: 'config',
  summary: 'list or change settings: concurrency, request limit, attempts, longest wait, messaging channel name',
  usage: ['list', 'set <concurrency|rpm|max_attempts|max_wait_minutes|messaging_channel|keep_files_days|keep_results_days> <value>'],
  options: {},
  examples: [
    { command: 'batchdesk config list' },
    { command: 'batchdesk config set concurrency 8', note: 'requests in flight per key (default 4)' },
    { command: 'batchdesk config set max_wait_minutes 30', note: 'how long an item may wait on an API that keeps answering 429 or trickling (default 10)' },
    { command: 'batchdesk config set messaging_channel signal', note: 'the default --channel of message batches' },
    {
      command: 'batchdesk config set keep_files_days 30',
      note: "retention's default: uploaded copies, outputs and exports go 30 days after their item finished (0 keeps them)",
    },
  ],
});
