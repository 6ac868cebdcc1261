// A window with something in it: finished OCR, transcription and message batches and a paused
// one, made as the window makes them, and the routes of every screen over them. Used by the
// German walkthrough (test/e2e/german.spec.ts) and by `npm run screens`.
import { join } from 'node:path';
import { INVOICES, RECORDINGS, SAMPLES } from '../fixtures';
import { createBatch, rpc, waitForBatch, type Host } from './processes';

export interface Showcase {
  ocr: string;
  calls: string;
  messages: string;
  paused: string;
  ocrJob: number;
  callJob: number;
  messageJob: number;
}

async function jobIdOf(host: Host, batchId: string, search: string): Promise<number> {
  const r = await rpc<{ rows: { id: number }[] }>(host, 'jobs.list', { batchId, offset: 0, limit: 10, search });
  const id = r.rows[0]?.id;
  if (id === undefined) throw new Error(`no job matching "${search}" in ${batchId}`);
  return id;
}

/** Names are the user's own words; they are given in the language of the screens shown. */
export async function makeShowcase(host: Host, names: { ocr: string; calls: string; messages: string; paused: string }): Promise<Showcase> {
  const ocr = await createBatch(host, 'ocr', INVOICES, { name: names.ocr });
  const calls = await createBatch(host, 'transcribe', RECORDINGS, { name: names.calls });
  const messages = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: names.messages, channel: 'whatsapp' });
  for (const id of [ocr, calls, messages]) await waitForBatch(host, id);
  // Paused by its budget (0.03 EUR) after two calls, before the third: a pause asked for after the
  // start raced its calls.
  const paused = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: names.paused, channel: 'voice', budget: 300 });
  await waitForBatch(host, paused, 'paused');
  return {
    ocr,
    calls,
    messages,
    paused,
    ocrJob: await jobIdOf(host, ocr, 'INV-2026-0012'),
    callJob: await jobIdOf(host, calls, 'call-001'),
    messageJob: await jobIdOf(host, messages, 'Olivia'),
  };
}

export interface ScreenRoute {
  name: string;
  hash: string;
  /** A selector that is on the screen once it has loaded. */
  ready: string;
}

export function screenRoutes(s: Showcase): ScreenRoute[] {
  return [
    { name: 'batches', hash: '#/batches', ready: 'table.batch-table' },
    { name: 'new-batch', hash: '#/new', ready: '.drop__zone' },
    { name: 'batch-ocr', hash: `#/batches/${s.ocr}`, ready: '[role="grid"] [role="row"]' },
    { name: 'batch-messages', hash: `#/batches/${s.messages}`, ready: '[role="grid"] [role="row"]' },
    { name: 'batch-paused', hash: `#/batches/${s.paused}`, ready: '[role="grid"]' },
    { name: 'job-ocr', hash: `#/batches/${s.ocr}/jobs/${s.ocrJob}`, ready: 'dialog[open]' },
    { name: 'job-transcription', hash: `#/batches/${s.calls}/jobs/${s.callJob}`, ready: 'dialog[open] audio' },
    { name: 'job-message', hash: `#/batches/${s.messages}/jobs/${s.messageJob}`, ready: 'dialog[open]' },
    { name: 'search', hash: '#/search/invoice', ready: 'main h1' },
    { name: 'costs', hash: '#/costs', ready: 'main h1' },
    { name: 'keys', hash: '#/keys', ready: 'main h1' },
    { name: 'watch', hash: '#/watch', ready: 'main h1' },
  ];
}
