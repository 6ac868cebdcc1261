// What redaction took out of a batch's items, counted by kind: summed from the tallies each job
// keeps with its payload (what it sent on) and its result (its stored copy). Only the jobs whose
// JSON names a tally are read, so a batch without redaction costs one indexed scan and no parse.
import type { Db } from '../db/connection';
import type { PersonalDataKind } from '../../../shared/privacy-kinds';
import { countsByKind, type RedactionTally } from '../../../shared/redaction-tally';
import { redactionsOf } from './job-views';

export interface BatchRedactions {
  /** By kind, in what the items sent on to their routes. */
  sent: Record<PersonalDataKind, number>;
  /** By kind, in the stored transcripts and OCR text (redactStored). */
  stored: Record<PersonalDataKind, number>;
  /** Items with at least one redaction. */
  items: number;
}

export function batchRedactions(db: Db, batchId: string): BatchRedactions {
  const rows = db
    .prepare(
      `SELECT payload_json, result_json FROM jobs WHERE batch_id = ? AND (instr(payload_json, '"redacted"') > 0 OR instr(coalesce(result_json, ''), '"redacted"') > 0)`,
    )
    .all(batchId) as { payload_json: string; result_json: string | null }[];
  return sumRedactions(rows);
}

/** The tallies of a batch's jobs (either store reads them) summed by kind. */
export function sumRedactions(rows: readonly { payload_json: string; result_json: string | null }[]): BatchRedactions {
  const all: RedactionTally[] = [];
  let items = 0;
  for (const r of rows) {
    const t = redactionsOf(r);
    if (t.length > 0) items += 1;
    all.push(...t);
  }
  return { sent: countsByKind(all.filter((t) => t.where === 'sent')), stored: countsByKind(all.filter((t) => t.where === 'stored')), items };
}
