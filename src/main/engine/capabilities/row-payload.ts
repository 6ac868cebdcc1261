// Payload of a job made from a CSV row or a TXT line (tts, text, image, embeddings, crm): the
// item's text, its optional name, the row's other columns, and, for answers saved as files, the
// output file name fixed at creation (so every attempt writes the same file).
import { z } from 'zod';
import type { BatchContext, CapabilityModule, PlanItem, Planned } from './capability';
import { safeFileBase } from '../output-names';
import { ItemOrigin } from '../../../shared/contract';
import { RedactionTally } from '../../../shared/redaction-tally';

export const RowPayload = z.object({
  row: z.number().int(),
  /** True for a TXT line (row = line number), false for a CSV row. */
  line: z.boolean(),
  /** The descriptor's column (text, input, prompt); '' when the capability reads all columns. */
  input: z.string(),
  name: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  /** File name in `<data folder>/outputs/<batch id>/` for answers saved as files. */
  output: z.string().nullable(),
  /** A follow-up item: the job of the batch before whose result it takes (pipelines). */
  from: ItemOrigin.optional(),
  /** What redaction took out of the input and fields before they were stored (redacted-plan.ts). */
  redacted: z.array(RedactionTally).optional(),
});
export type RowPayload = z.infer<typeof RowPayload>;

export { characters } from '../../../shared/characters';

export function where(p: { row: number; line: boolean }): string {
  return p.line ? `line ${p.row}` : `row ${p.row}`;
}

/** A row item with its text; `measure` gives its units. */
export function planRow(item: PlanItem, what: string, measure: (input: string) => number): Planned<RowPayload> {
  if (item.kind !== 'row') return { ok: false, why: 'rows_only', message: `${what} comes from CSV rows or TXT lines.` };
  const input = (item.text ?? '').trim();
  if (input === '') return { ok: false, why: 'input_empty', message: `the ${what} is empty` };
  const name = item.fields.name?.trim() || null;
  return { ok: true, payload: { row: item.row, line: item.line, input, name, fields: item.fields, output: null }, units: measure(input) };
}

/** What every row capability shares; `body` is its JSON request body, fixed at creation. */
export function rowJobParts(
  capability: string,
  body: (p: RowPayload, ctx: BatchContext) => string,
): Pick<CapabilityModule<RowPayload>, 'payload' | 'sourceFile' | 'sourceView' | 'sourceColumns' | 'userColumns' | 'delivery' | 'requestBody'> {
  return {
    payload: RowPayload,
    sourceFile: () => null,
    sourceView: (p) => ({ kind: 'row', row: p.row, line: p.line, input: p.input, name: p.name, fields: p.fields, from: p.from ?? null }),
    sourceColumns: (p) => ({ name: p.name, input: p.input, from_job: p.from?.job ?? null }),
    userColumns: (p) => p.fields,
    requestBody: body,
    // The request decides what is done: the same body to the same capability is the same work.
    delivery: (p, ctx) => `${capability}\0${body(p, ctx)}`,
  };
}

/** `name` made safe as a file name (no separators, no dot files, bounded), else the row number. */
export function outputBase(p: RowPayload): string {
  return safeFileBase(p.name ?? '') || `${p.line ? 'line' : 'row'}-${p.row}`;
}
