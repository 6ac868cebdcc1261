import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const configSpec = defineCommand({
  name: 'config',
  summary:
    "list or change settings: concurrency, request limit, attempts, longest wait, messaging channel name, country of national phone numbers, retention's default",
  usage: [
    'list [--store URL]',
    'set <concurrency|rpm|max_attempts|max_wait_minutes|messaging_channel|phone_country|keep_files_days|keep_results_days> <value>',
    'set <keep_files_days|keep_results_days> <days> --store URL',
  ],
  options: {
    store: {
      ...STORE_OPTION.store,
      help: "keep_files_days and keep_results_days of a team's shared store (PostgreSQL URL; env BATCHDESK_STORE): the team's default, kept in the store for every worker and desk",
    },
  },
  examples: [
    { command: 'batchdesk config list' },
    { command: 'batchdesk config set concurrency 8', note: 'requests in flight per key (default 4)' },
    { command: 'batchdesk config set max_wait_minutes 30', note: 'how long an item may wait on an API that keeps answering 429 or trickling (default 10)' },
    { command: 'batchdesk config set messaging_channel signal', note: 'the default --channel of message batches' },
    {
      command: 'batchdesk config set phone_country DE',
      note: "redaction reads phone numbers without a country code as German ones (auto: from this computer's locale, which C.UTF-8 does not name)",
    },
    {
      command: 'batchdesk config set keep_files_days 30',
      note: "retention's default: uploaded copies, outputs and exports go 30 days after their item finished (0 keeps them)",
    },
    {
      command: 'batchdesk config set keep_results_days 90 --store postgresql://batchdesk@db.office.lan/batchdesk',
      note: "the team's default: result text of the team's batches without a rule of their own goes 90 days after their item finished",
    },
  ],
});
