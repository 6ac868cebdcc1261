import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const runSpec = defineCommand({
  name: 'run',
  sends: true,
  summary: 'send: process batches until nothing runnable is left (Ctrl-C stops cleanly)',
  usage: ['[batch-id...]'],
  options: {
    ...STORE_OPTION,
    watch: {
      type: 'boolean',
      help: "keep running: take files dropped into the watched folders (`watch add`) and send them, until Ctrl-C or SIGTERM; with --store: a standing worker that picks up the team's batches as they are started or resumed",
    },
    settle: { type: 'string', value: 'SECONDS', help: 'with --watch: how long a file must keep its size and time before it is taken (default 3)' },
  },
  examples: [
    { command: 'batchdesk run', note: 'every unfinished batch' },
    { command: 'batchdesk run b1a2b3', note: 'one batch (any unique prefix of its id)' },
    { command: 'batchdesk run --api-url https://api.example.com', note: 'against a given API instead of the configured one' },
    { command: 'batchdesk run --watch', note: 'a server mode: hot folders taken and sent as files arrive; stop with Ctrl-C or SIGTERM' },
    { command: 'batchdesk run --watch --store postgresql://batchdesk@db.office.lan/batchdesk', note: "a standing worker of the team's shared store" },
  ],
  notes: ['Exit codes: 0 all succeeded, 1 some items failed, 2 usage error, 3 a batch is paused, 4 could not start, 130 interrupted.'],
});
