import { defineCommand } from '../command-spec';

export const sandboxSpec = defineCommand({
  name: 'sandbox',
  summary: 'run the local sandbox API on 127.0.0.1 and print its URL, admin token and demo keys',
  usage: ['[--port N] [--db FILE] [--seed N] [--admin-token TOKEN]'],
  options: {
    port: { type: 'string', value: 'N', help: 'port to listen on (default: a free port)' },
    db: { type: 'string', value: 'FILE', help: "SQLite file for the sandbox's state (default: in memory)" },
    seed: { type: 'string', value: 'N', help: 'seed of the fault switches (default 1)' },
    'admin-token': { type: 'string', value: 'TOKEN', help: 'admin token to use instead of a random one' },
  },
  examples: [{ command: 'batchdesk sandbox --port 8787 --db sandbox.sqlite' }],
  // It is the API, not a user of one; its state is in memory or in --db FILE.
  dataAndApi: false,
});
