import { defineCommand } from '../command-spec';
import { SETTING_FLAGS } from './batch-create';
import { STORE_OPTION } from './store-option';

export const watchSpec = defineCommand({
  name: 'watch',
  summary: 'hot folders: files dropped into a watched folder become items of its batch of the day (sent by `run --watch` or the app)',
  usage: [
    'add DIR --capability ocr|transcribe [--tier T] [--ext pdf,png] [--then STEP]... [--key LABEL] [--budget-per-day EUR] [--redact KINDS [--redact-stored]] [--keep-files-days N] [--keep-results-days N] [--delete-originals]',
    'list [--json] [--store URL]',
    'remove ID|DIR',
    'resend FILE',
  ],
  options: {
    capability: { type: 'string', value: 'ocr|transcribe', help: 'add: what is done with each file (capabilities that take files)' },
    tier: { type: 'string', value: 'basic|standard|superior', help: 'add: price and quality tier (default standard)' },
    ext: {
      type: 'string',
      value: 'LIST',
      help: 'add: only files with these extensions, e.g. pdf,png (default: every file; others are reported if not of the right type)',
    },
    then: {
      type: 'string',
      multiple: true,
      value: 'STEP',
      help: 'add, repeatable: a next step taking each result, as in `batch create --then` (text:summary, crm:conversation, ...)',
    },
    key: { type: 'string', value: 'LABEL', help: "add: the stored key the folder's batches send with (a client's key, `keys list`)" },
    'budget-per-day': { type: 'string', value: 'EUR', help: "add: each day's batch pauses before spending more than this" },
    redact: { ...SETTING_FLAGS.redact, help: `add, in every step of the folder's batches: ${SETTING_FLAGS.redact.help}` },
    'redact-stored': { ...SETTING_FLAGS['redact-stored'], help: `add: ${SETTING_FLAGS['redact-stored'].help}` },
    'keep-files-days': {
      type: 'string',
      value: 'N',
      help: "add: delete the outputs and exports Batchdesk wrote for the folder's items N days after they finished (default: the keep_files_days setting)",
    },
    'keep-results-days': { type: 'string', value: 'N', help: "add: drop the folder's result text N days after the item finished, the audit kept" },
    'delete-originals': {
      type: 'boolean',
      help: 'add: delete a file from this folder once every step of its item succeeded (after --keep-files-days, if given); never without this flag',
    },
    json: { type: 'boolean', help: 'list: print the watched folders as JSON' },
    store: {
      ...STORE_OPTION.store,
      help: "list: the retention a folder without its own rule gets when `run --watch --store URL` sends its batches to this team's shared store (the team's default)",
    },
  },
  examples: [
    { command: 'batchdesk watch add ~/scans/invoices --capability ocr --ext pdf,png,jpg --budget-per-day 20', note: 'each scan dropped there is read' },
    {
      command: 'batchdesk watch add /srv/calls --capability transcribe --then text:summary --key acme',
      note: "each recording transcribed and summarised on ACME's key",
    },
    {
      command: 'batchdesk watch add /srv/calls --capability transcribe --then text:summary --then crm:conversation --redact all',
      note: 'card numbers, IBANs, phone numbers, e-mails and dates of birth never reach the summary or the CRM',
    },
    { command: 'batchdesk watch list' },
    { command: 'batchdesk watch list --store postgresql://batchdesk@db.office.lan/batchdesk', note: "each folder's retention in the team's store" },
    { command: 'batchdesk watch remove ~/scans/invoices', note: 'or its id; its batches stay' },
    { command: 'batchdesk watch resend /srv/calls/call-0412.wav', note: 'send the new version of a file that changed after it was sent' },
  ],
  notes: [
    'Files are taken while `batchdesk run --watch`, the desktop app or the browser host runs, and files that came while',
    'none ran are taken at the next start. Subfolders are included; hidden files and folders and partial downloads',
    '(.part, .crdownload, .tmp, ~$ lock files) are ignored; a file is taken once its size and time have not changed',
    'for 3 seconds and it is complete by its format (a WAV whose header sizes match the file, a PDF ending in %%EOF, a',
    'PNG ending in IEND, a JPEG ending in its end marker); other formats once unchanged for 30 seconds, and so is a',
    'PDF or WAV written in the folder itself (a scanner or recorder may add to it after a pause), or seen growing; one',
    'moved in finished keeps the 3 seconds. A file whose',
    'content the folder already took (moved, renamed or copied) is skipped and listed. A file that changes after it',
    'was sent is reported and not sent again; `watch resend FILE` sends its new version.',
    'A file that cannot be processed (unreadable, wrong type, damaged) is moved into .batchdesk-set-aside/ inside the',
    'folder, with the reason listed by `watch list`; the other files go on.',
    'The files of a day become one batch named "<folder> <date>", started at once, appended to as files come.',
  ],
});
