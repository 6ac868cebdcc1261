// What a finished job is found by: its source (file path, "file.csv row N") and a body of its
// input (recipient, message, row text and columns), its result (transcript, OCR text and fields,
// text result and label, record id, ...) and its error. Built from the capability's own module
// and descriptor, so a new capability is searchable without an entry here.
import type { BatchCapability } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { storedJson } from '../stored-json';

export interface SearchDocument {
  source: string;
  body: string;
}

export function documentOf(
  job: { source: string; payload_json: string; result_json: string | null; error_message: string | null },
  capability: BatchCapability,
): SearchDocument {
  const mod = capabilityFor(capability);
  const parts: string[] = [];
  const payload = mod.payload.safeParse(storedJson(job.payload_json));
  if (payload.success) {
    const v = mod.sourceView(payload.data);
    switch (v.kind) {
      case 'message':
        parts.push(v.to, v.subject ?? '', v.text);
        break;
      case 'row':
        parts.push(v.input, ...Object.values(v.fields));
        break;
      case 'file':
        break; // the source is the file's path
    }
  }
  const result = storedJson(job.result_json);
  if (result !== null) {
    const text = mod.descriptor.offers(result);
    if (text) parts.push(text);
    // Text columns only (a label, an invoice number, a record id): bare numbers (dimensions, seconds) are noise.
    for (const [k, v] of Object.entries(mod.descriptor.columns(result))) if (k !== 'text' && typeof v === 'string') parts.push(v);
  }
  if (job.error_message) parts.push(job.error_message);
  return { source: job.source, body: parts.filter((p) => p.trim() !== '').join('\n') };
}

/** A job as the search index reads it when its state changed (the job may be gone: null fields). */
export interface IndexedRow {
  state: string | null;
  source: string;
  payload_json: string;
  result_json: string | null;
  error_message: string | null;
  parent_job_id: number | null;
  capability: BatchCapability | null;
}

/**
 * The document a job is found by, or null when it is not in the index: not finished (retried,
 * gone), or an embedding of another batch's result, which holds a copy of that result (found
 * there, not twice).
 */
export function indexedDocument(r: IndexedRow): SearchDocument | null {
  if (r.state !== 'succeeded' && r.state !== 'failed') return null;
  if (r.capability === null) return null;
  if (r.capability === 'embeddings' && r.parent_job_id !== null) return null;
  return documentOf(r, r.capability);
}
