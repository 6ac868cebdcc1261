import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';
import { YES_OPTION } from './yes-option';

export const scheduleSpec = defineCommand({
  name: 'schedule',
  summary: 'set, change or remove the time a batch not started yet starts by itself',
  usage: ['<batch-id> --at TIME [--yes]', '<batch-id> --now [--yes]', '<batch-id> --clear'],
  options: {
    ...STORE_OPTION,
    ...YES_OPTION,
    at: {
      type: 'string',
      value: 'TIME',
      help: '"2026-12-01 09:00" or "... 09:00:30" (this computer\'s time), "2026-12-01 09:00 Europe/Berlin" or ISO with an offset ("2026-12-01T09:00+01:00"); must lie ahead',
    },
    now: { type: 'boolean', help: 'remove the time and start the batch now (a Batchdesk that is running sends it; else `batchdesk run`)' },
    clear: { type: 'boolean', help: 'remove the time: the batch waits for its start (`batchdesk run <batch-id>`, Start in the window)' },
    json: { type: 'boolean', help: 'print the batch as JSON' },
  },
  examples: [
    { command: 'batchdesk schedule b1a2b3 --at "2026-12-01 09:00"' },
    { command: 'batchdesk schedule b1a2b3 --at "2026-12-01 09:00 America/New_York"', note: 'nine in the morning in New York' },
    { command: 'batchdesk schedule b1a2b3 --now', note: 'do not wait for the time' },
    { command: 'batchdesk schedule b1a2b3 --at "2026-12-01 09:00" --yes', note: 'in a script: without asking' },
  ],
  notes: [
    'A scheduled batch is sent by whichever Batchdesk runs at that time (the window, the browser host,',
    '`batchdesk run --watch`, or `batchdesk run <batch-id>`, which waits for it), or by the first one started later.',
    'Every step of a pipeline gets the time. `batchdesk status` shows "scheduled for <time>".',
    '--at and --now show what the batch would send (items, units, estimated cost, the budget) and ask first, since it is',
    'then sent with no one asked again; --yes answers for a script (--clear sends nothing and does not ask).',
  ],
});
