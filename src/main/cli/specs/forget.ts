import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const forgetSpec = defineCommand({
  name: 'forget',
  summary: 'remove a person (phone number, e-mail address or name) from every job, result, search entry, embedding and export',
  usage: ['VALUE [--country CC] [--dry-run] [--json]'],
  options: {
    country: { type: 'string', value: 'CC', help: 'a phone number written without its country code is read as of this country (DE, GB, ...)' },
    'dry-run': { type: 'boolean', help: 'report where the value is, change nothing' },
    json: { type: 'boolean', help: 'print the report as JSON (never the value)' },
    ...STORE_OPTION,
  },
  examples: [
    { command: 'batchdesk forget "+44 20 7946 0123"', note: 'also found written 020 7946 0123, +442079460123 or said as words' },
    { command: 'batchdesk forget jo.smith@example.com' },
    { command: 'batchdesk forget "Jo Smith" --dry-run', note: 'where the name is, changing nothing' },
    { command: 'batchdesk forget 0151 2345678 --country DE' },
    { command: 'batchdesk forget "+44 20 7946 0123" --store postgresql://batchdesk@db.office.lan/batchdesk', note: "the team's store" },
  ],
  notes: [
    'Each place is replaced by [FORGOTTEN]: sources, inputs, request bodies, results, errors, histories, batch names,',
    'invoice checks and opt-out notes; a job that held it loses its embedding and search entry (indexed again from',
    'the scrubbed text) and, if not sent yet, is cancelled. Exports and logs in the data folder are rewritten; an',
    'output or a spreadsheet made from such an item is deleted. The database is rebuilt so no old page keeps it.',
    'An opted-out person stays on the opt-out list as a keyed hash: they are still never messaged.',
    'Not found: recordings and scans themselves, values cut short or misspelt, a name inside an e-mail address.',
  ],
});
