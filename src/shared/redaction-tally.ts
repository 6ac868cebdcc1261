// What redaction took out of one item, as a job keeps it and the job dialog shows it: which kind,
// in which field, how many times, and whether on the way out (`sent`: what the item sends to its
// route) or in the stored copy (`stored`: a transcript or OCR text kept redacted). Never a value.
import { z } from 'zod';
import { PERSONAL_DATA_KINDS, PersonalDataKind } from './privacy-kinds';

export const RedactionTally = z.object({
  where: z.enum(['sent', 'stored']),
  /** The field of the payload or the result: "input", "fields.phone", "text", "segments". */
  field: z.string(),
  kind: PersonalDataKind,
  count: z.number().int().positive(),
});
export type RedactionTally = z.infer<typeof RedactionTally>;

/** Read leniently from a stored payload or result: anything else there counts as none. */
export function talliesIn(stored: unknown): RedactionTally[] {
  if (typeof stored !== 'object' || stored === null || !('redacted' in stored)) return [];
  const r = z.array(RedactionTally).safeParse((stored as { redacted: unknown }).redacted);
  return r.success ? r.data : [];
}

/** Counts by kind, every kind present (0 when none), for a batch's or an item's totals. */
export function countsByKind(tallies: readonly RedactionTally[]): Record<PersonalDataKind, number> {
  const out = Object.fromEntries(PERSONAL_DATA_KINDS.map((k) => [k, 0])) as Record<PersonalDataKind, number>;
  for (const t of tallies) out[t.kind] += t.count;
  return out;
}
