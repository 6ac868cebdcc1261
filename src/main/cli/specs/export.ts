import { defineCommand } from '../command-spec';

export const exportSpec = defineCommand({
  name: 'export',
  summary: "write a batch's results to a file, or each item's own file(s) to a folder",
  usage: ['<batch-id> --format csv|json|txt --out PATH', '<batch-id> --format files|srt|vtt --out DIR'],
  options: {
    format: {
      type: 'string',
      value: 'csv|json|txt|files|srt|vtt',
      help: 'file format; files: each succeeded item\'s own file(s); srt, vtt: subtitles per transcript',
    },
    out: { type: 'string', value: 'PATH', help: 'file to write (its folder must exist); for files, srt and vtt, the folder (created if missing)' },
  },
  examples: [
    { command: 'batchdesk export b1a2b3 --format csv --out results.csv' },
    { command: 'batchdesk export b1a2b3 --format files --out ~/speech', note: 'greeting.wav, row-3.wav, ... (never overwrites: a taken name gets " (2)")' },
    { command: 'batchdesk export b4c5d6 --format srt --out ~/calls/subtitles', note: 'call-001.srt, call-002.srt, ... one per recording, with the speakers' },
  ],
  notes: [
    '--format files writes audio and images as received, a .txt per transcript, OCR text or text result,',
    'and for a transcript also its .srt, .vtt and .json (the whole result), named after the source file or',
    'the row (its name column, else row-N / line-N). --format srt or vtt writes only the subtitle file of',
    'each recording (transcribe batches only), one cue per segment (a transcript without segments: one',
    'cue over the whole recording). Channel, embeddings and CRM batches have no file per item: use',
    '--format csv or json.',
  ],
});
