import { defineCommand } from '../command-spec';
import { SPEND_BY } from '../../../shared/spend';
import { STORE_OPTION } from './store-option';

export const reportSpec = defineCommand({
  name: 'report',
  summary: 'spend by client, key, batch, capability or day over a range of days (a client statement with --client and --month)',
  usage: [`--by ${SPEND_BY.join('|')} [--from YYYY-MM-DD] [--to YYYY-MM-DD | --month YYYY-MM] [--client NAME] [--format table|csv|json] [--out FILE]`],
  options: {
    ...STORE_OPTION,
    by: {
      type: 'string',
      value: SPEND_BY.join('|'),
      help: 'what each row is: a client (the client of the key a batch was created for), a key (the key that paid), a batch, a capability or a day',
    },
    from: { type: 'string', value: 'YYYY-MM-DD', help: 'first day included (local time; default: the first spend)' },
    to: { type: 'string', value: 'YYYY-MM-DD', help: 'last day included (default: today)' },
    month: { type: 'string', value: 'YYYY-MM', help: 'a calendar month, instead of --from and --to' },
    client: { type: 'string', value: 'NAME', help: 'only batches of this client ("" for batches without a client)' },
    format: { type: 'string', value: 'table|csv|json', help: 'table (default) to read, csv for a spreadsheet, json for scripts' },
    out: { type: 'string', value: 'FILE', help: 'write to FILE instead of standard output (never overwrites an existing file)' },
  },
  examples: [
    { command: 'batchdesk report --by client --month 2026-11', note: 'what each client cost in November' },
    {
      command: 'batchdesk report --by key --store postgresql://batchdesk@db.office.lan/batchdesk',
      note: "what the team's workers spent, by the key that paid",
    },
    { command: 'batchdesk report --by batch --client "ACME GmbH" --month 2026-11 --format csv --out acme-2026-11.csv', note: "ACME's monthly statement" },
    { command: 'batchdesk report --by day --from 2026-11-01 --to 2026-11-15 --format json' },
  ],
  notes: [
    'Spend is what the API charged for items that succeeded (the rates in `rates list`), counted on the day each',
    'item finished. Costs are exact to 1/10,000 EUR in csv and json (cost_eur), rounded to the cent in the table.',
  ],
});
