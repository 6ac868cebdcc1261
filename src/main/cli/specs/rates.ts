import { defineCommand } from '../command-spec';
import { RATE_ITEMS } from '../../../shared/rates';

export const ratesSpec = defineCommand({
  name: 'rates',
  summary: 'list or set unit rates per capability and tier (estimates and costs use them)',
  usage: ['list [--json]', 'set <item> <basic|standard|superior> <EUR per unit>'],
  options: {
    json: { type: 'boolean', help: 'rates list: print the rates as JSON' },
  },
  examples: [
    { command: 'batchdesk rates list', note: 'four decimals; (default) marks rates you have not set' },
    { command: 'batchdesk rates set transcribe standard 0.0004' },
  ],
  notes: [`Items: ${RATE_ITEMS.join(', ')}.`],
});
