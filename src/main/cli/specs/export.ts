import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const exportSpec = defineCommand({
  name: 'export',
  summary: "write a batch's results to a file, or each item's own file(s) to a folder",
  usage: [
    '<batch-id> --format csv|json|txt|invoices|line-items|xlsx --out PATH [--csv-locale LOCALE | --spreadsheet LOCALE] [--no-bom]',
    '<batch-id> --format files|srt|vtt|ubl --out DIR',
  ],
  options: {
    ...STORE_OPTION,
    format: {
      type: 'string',
      value: 'csv|json|txt|invoices|line-items|xlsx|files|srt|vtt|ubl',
      help: "file format; invoices, line-items: OCR batches' invoices and their lines as CSV; xlsx: both as an Excel workbook (numbers, dates, header frozen); files: each succeeded item's own file(s); srt, vtt: subtitles per transcript; ubl: a UBL 2.1 invoice per OCR item",
    },
    'csv-locale': {
      type: 'string',
      value: 'LOCALE',
      help: "CSV for a spreadsheet in this locale: ';' between fields and a decimal comma in numbers where the locale writes them so (de-DE, fr-FR); default: comma and point",
    },
    spreadsheet: {
      type: 'string',
      value: 'LOCALE',
      help: "CSV for a spreadsheet in this locale as the window's \"for a spreadsheet\" writes it: --csv-locale's delimiter and decimal sign, Batchdesk's column names and words in the locale's language (German for de-*, else English; your CSV's own columns as they are), dates as it reads them and times in this computer's time zone (TZ)",
    },
    'no-bom': { type: 'boolean', help: 'CSV without the UTF-8 byte-order mark Excel needs to read accents (for tools that take it for text)' },
    out: { type: 'string', value: 'PATH', help: 'file to write (its folder must exist); for files, srt, vtt and ubl, the folder (created if missing)' },
  },
  examples: [
    { command: 'batchdesk export b1a2b3 --format csv --out results.csv' },
    { command: 'batchdesk export b1a2b3 --format files --out ~/speech', note: 'greeting.wav, row-3.wav, ... (never overwrites: a taken name gets " (2)")' },
    { command: 'batchdesk export b4c5d6 --format srt --out ~/calls/subtitles', note: 'call-001.srt, call-002.srt, ... one per recording, with the speakers' },
    { command: 'batchdesk export b7e8f9 --format invoices --out invoices.csv', note: 'one row per invoice: fields, needs_review, each check' },
    { command: 'batchdesk export b7e8f9 --format invoices --csv-locale de-DE --out rechnungen.csv', note: 'opens as columns in a German Excel: 1234,50' },
    {
      command: 'batchdesk export b7e8f9 --format invoices --spreadsheet de-DE --out rechnungen.csv',
      note: 'German headers and words for a German Excel: Rechnungsdatum 03.10.2026, Zu prüfen nein',
    },
    { command: 'batchdesk export b7e8f9 --format xlsx --out invoices.xlsx', note: 'sheets Invoices and Line items: amounts as numbers, dates as dates' },
    {
      command: 'batchdesk export b7e8f9 --format ubl --out ~/accounting/ubl',
      note: 'invoice-aldenmoor-INV-2026-0012.xml, ... one UBL 2.1 invoice per document',
    },
    {
      command: 'batchdesk export b1a2b3 --format csv --out results.csv --store postgresql://batchdesk@db.office.lan/batchdesk',
      note: "a batch of the team's shared store (every format, speech and images too)",
    },
  ],
  notes: [
    '--format files writes audio and images as received, a .txt per transcript, OCR text or text result,',
    'and for a transcript also its .srt, .vtt and .json (the whole result), named after the source file or',
    'the row (its name column, else row-N / line-N). --format srt or vtt writes only the subtitle file of',
    'each recording (transcribe batches only), one cue per segment (a transcript without segments: one',
    'cue over the whole recording). Channel, embeddings and CRM batches have no file per item: use',
    "--format csv or json. For OCR batches, --format files writes each invoice's .txt, .json and UBL .xml;",
    'invoices and line-items write the columns listed in docs/invoices.md, one row per succeeded invoice',
    'or per line item; json gives each item needs_review and checks [{check, ok, detail}].',
  ],
});
