import { defineCommand } from '../command-spec';

export const batchCreateSpec = defineCommand({
  name: 'batch create',
  summary: 'check files or a CSV and create a batch of the valid items (nothing is sent until `run`)',
  usage: ['<transcribe|ocr|channel> <paths...> [options]'],
  options: {
    tier: { type: 'string', value: 'basic|standard|superior', help: 'price and quality tier (default standard)' },
    channel: { type: 'string', value: 'whatsapp|voice|email|NAME', help: 'channel batches: where to send (default: the messaging_channel setting, whatsapp)' },
    voice: { type: 'string', value: 'NAME', help: 'with --channel voice: a voice published in the panel' },
    name: { type: 'string', value: 'TEXT', help: 'label for the batch' },
    budget: { type: 'string', value: 'EUR', help: 'pause the batch before it would spend more than this' },
    'allow-resend': { type: 'boolean', help: 'include items an unfinished or succeeded batch already has (same message to the same recipient, same file)' },
    json: { type: 'boolean', help: 'print the batch and every problem as JSON' },
  },
  examples: [
    { command: 'batchdesk batch create transcribe ~/calls/october', note: 'files and folders, recursive' },
    { command: 'batchdesk batch create ocr ~/scans --tier superior --budget 25' },
    { command: 'batchdesk batch create channel customers.csv --channel whatsapp --name "October notice"', note: 'CSV columns to, text (subject for email)' },
  ],
  notes: [
    'Prints each problem with its file or CSV row, the cause and what to do, then the cost estimate.',
    'Items already in an unfinished or succeeded batch are left out, naming that batch, unless --allow-resend.',
  ],
});
