import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';

export const retentionSpec = defineCommand({
  name: 'retention',
  summary: 'delete what the retention rules name (files Batchdesk wrote, result text), or show it; and the log of every deletion',
  usage: ['run [--dry-run] [--json] [--store URL]', 'log [--limit N] [--json] [--store URL]'],
  options: {
    'dry-run': { type: 'boolean', help: 'run: list what would be deleted, delete nothing' },
    limit: { type: 'string', value: 'N', help: 'log: the newest N entries (default 200)' },
    json: { type: 'boolean', help: 'print {"deleted"|"would_delete"|"log": [{"kind", "what", "rule", ...}]}' },
    ...STORE_OPTION,
  },
  examples: [
    { command: 'batchdesk retention run --dry-run', note: 'what would go now, by which rule' },
    { command: 'batchdesk retention run', note: 'deletes it and logs each deletion (a run, the app and `run --watch` also do, every hour)' },
    { command: 'batchdesk retention log --limit 50' },
    {
      command: 'batchdesk retention run --store postgresql://batchdesk@db.office.lan/batchdesk',
      note: "the team's batches: result text in the store, and this computer's own files of them (every worker also does, every hour)",
    },
  ],
  notes: [
    'Rules: --keep-files-days and --keep-results-days on `batch create` and `watch add`, else the settings keep_files_days',
    'and keep_results_days (0 or unset: kept). Files go N days after their item finished: outputs (audio, images) and',
    "the window's exports in the data folder; an uploaded copy of a source only once every step of its item succeeded.",
    'Result text goes with its search entry and embedding; when it was sent, its cost and idempotency key stay.',
    'A file of your own is never deleted, except in a watched folder added with --delete-originals.',
    "A team's batch keeps the rule it was made with (its flags), else the team's default (`config set keep_files_days N",
    '--store URL`, read at each run), else the default of the computer that made it.',
  ],
});
