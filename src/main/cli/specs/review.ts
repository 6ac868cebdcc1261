import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const reviewSpec = defineCommand({
  name: 'review',
  summary: "correct an invoice's fields, accept or reject it (the checks run again), or list the invoices that need review",
  usage: ['<job-id> [--set FIELD=VALUE]... [--accept | --reject] [--note TEXT]', '--list <batch-id>'],
  options: {
    set: {
      type: 'string',
      multiple: true,
      value: 'FIELD=VALUE',
      help: 'correct a field: vendor, vendorVatId, buyer, buyerStreet, buyerCity, buyerPostcode, buyerCountry (ISO 3166-1, e.g. GB), invoiceNumber, issueDate, dueDate, currency, net, gross, iban, vatRate, vatAmount, vat.N.rate, vat.N.amount, line.N.description|quantity|unitPrice|amount|vatRate (N from 1; an empty VALUE clears it)',
    },
    accept: { type: 'boolean', help: 'accept the invoice (as corrected): it leaves the Needs review queue; your user name and the time are recorded' },
    reject: { type: 'boolean', help: 'reject the invoice: it leaves the Needs review queue, counted as rejected' },
    note: { type: 'string', value: 'TEXT', help: 'a note kept with the review and exported with it' },
    list: { type: 'string', value: 'BATCH', help: 'list the invoices of the batch that need review, with their job ids and failed checks' },
    json: { type: 'boolean', help: 'print the review (or the list) as JSON' },
    ...STORE_OPTION,
  },
  examples: [
    { command: 'batchdesk review --list b7e8f9', note: 'the Needs review queue: job id, item, file, failed checks' },
    { command: 'batchdesk review 1042', note: 'the invoice as read and corrected, its checks, and what the supplier memory suggests' },
    { command: 'batchdesk review 1042 --set gross=769.20 --set line.2.amount=80.00', note: 'corrects two fields; the checks run again and are printed' },
    { command: 'batchdesk review 1042 --set vendorVatId="GB 318 4472 06" --accept --note "total misprinted"', note: 'corrects and accepts in one go' },
    { command: 'batchdesk review 1043 --reject' },
    { command: 'batchdesk review --list b7e8f9 --store postgresql://team@db/batchdesk', note: "a team's batch: its Needs review queue in the shared store" },
  ],
  notes: [
    'Values are checked before anything is saved: dates (2026-10-31 or 31.10.2026), amounts (1234.50 or 1.234,50),',
    'VAT ids, currency codes and IBANs. The reading stays as it came; exports carry the corrected values, the',
    'reading and the review (decision, who, when). An invoice leaves the Needs review queue only by --accept or',
    '--reject; changing the values of a decided invoice puts it back. An accepted review is remembered per supplier',
    "(by VAT id, else by name): its name, VAT id, IBAN and usual VAT rate are offered on the supplier's later invoices",
    '("from your review of job 17"), never applied by themselves: --set applies one.',
    "Reviews are kept where the batch is: with --store (or BATCHDESK_STORE), a team's batch is reviewed in its",
    "shared store, by the store's job ids; the supplier memory there is the team's, offered on every desk.",
  ],
});
