import { defineCommand } from '../command-spec';
import { BATCH_CAPABILITIES } from '../../../shared/domain';
import { STORE_OPTION } from './store-option';

export const searchSpec = defineCommand({
  name: 'search',
  summary: 'find finished items by the words of their results, inputs, file names and errors, across every batch',
  usage: ['<query> [--semantic] [--batch ID] [--capability C] [--limit N] [--json]'],
  options: {
    ...STORE_OPTION,
    semantic: { type: 'boolean', help: 'by meaning: nearest embedded results (embed a batch first: batch create embeddings --from ID)' },
    batch: { type: 'string', value: 'ID', help: 'only this batch (any unique prefix of its id)' },
    capability: { type: 'string', value: BATCH_CAPABILITIES.join('|'), help: 'only batches of this capability' },
    limit: { type: 'string', value: 'N', help: 'at most N hits, best first (default 20, at most 1000)' },
    json: {
      type: 'boolean',
      help: 'print {"hits": [{"batch", "job", "item", "source", "snippet", "score"}]} (best first; item = the number export and the window show)',
    },
  },
  examples: [
    { command: 'batchdesk search "charged twice"', note: 'every word, in any order; "quoted words" as a phrase' },
    { command: 'batchdesk search refund --capability transcribe --limit 50 --json' },
    { command: 'batchdesk search "late parcel" --store postgresql://batchdesk@db.office.lan/batchdesk', note: "the team's batches in the shared store" },
    { command: 'batchdesk search "billed two times" --semantic', note: 'finds "I was charged twice" once the transcripts are embedded' },
  ],
  notes: [
    'Matches whole words and their English forms (refund, refunds, refunded), accents ignored; the best',
    'passage of each hit is shown with the matches in **bold**. Items are searchable once finished.',
    '--semantic embeds the query through the API (one small request) and ranks by cosine similarity.',
  ],
});
